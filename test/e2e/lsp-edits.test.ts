// Edits through the language servers on real TypeScript and Python projects:
// rename checked by re-reading every file and re-running diagnostics, dry runs that write nothing,
// the errors an edit introduces and fixes, onlyIfNoNewErrors, code actions by title, organize
// imports, range and document formatting, and getDiagnostics answered by the servers; written code
// actions and organized imports are checked by TypeScript's own compiler too.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PY_PROJECT, TS_PROJECT } from "../fixtures/lsp-projects.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

interface Diagnostics {
  diagnostics: { file: string; line: number; column: number; severity: string; code?: string; message: string; source: string }[];
  counts: { error: number };
  sources: string[];
  skipped: { source: string; reason: string }[];
}

describe("edits on TypeScript", () => {
  let fx: LspFixture;
  const read = (path: string) => readFile(join(fx.root, path), "utf8");

  beforeAll(async () => {
    fx = await lspFixture({
      ...TS_PROJECT,
      "src/imports.ts": [
        'import { Square, Circle } from "./shapes.js";',
        'import { totalArea } from "./geometry.js";',
        "",
        "export const one = new Circle(1);",
        "",
      ].join("\n"),
      "src/ugly.ts": ["export function ugly( a:number,b:number ){", "return a+b", "}", "export const x  =  1;", ""].join("\n"),
      "native/ugly.c": ["int  add( int a,int b ){return a+b;}", ""].join("\n"),
    });
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("a dry-run rename shows the diff in every file and writes nothing", async () => {
    const text = await fx.tools.text("renameSymbol", {
      file: "src/geometry.ts",
      line: 4,
      symbol: "totalArea",
      newName: "sumOfAreas",
      dryRun: true,
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe("Would rename `totalArea` to `sumOfAreas`: 3 files (dry run; nothing written).");
    expect(lines[1]).toMatch(/^Errors: 0 introduced, 0 fixed \(\d+ files checked by /);
    expect(text).toContain("Would edit src/geometry.ts (+1 -1)");
    expect(text).toContain("Would edit src/main.ts (+2 -2)");
    expect(text).toContain("Would edit src/imports.ts (+1 -1)");
    expect(text).toContain("-export function totalArea(shapes: Shape[]): number {\n+export function sumOfAreas(shapes: Shape[]): number {");
    expect(await read("src/geometry.ts")).toBe(TS_PROJECT["src/geometry.ts"]);
    expect(await read("src/main.ts")).toBe(TS_PROJECT["src/main.ts"]);
  });

  it("renameSymbol writes every file at once; re-read and re-checked, the project has the new name and no new error", async () => {
    const text = await fx.tools.text("renameSymbol", { file: "src/geometry.ts", line: 4, symbol: "totalArea", newName: "sumOfAreas" });
    expect(text.split("\n")[0]).toBe("Renamed `totalArea` to `sumOfAreas`: 3 files written together.");
    expect(text.split("\n")[1]).toMatch(/^Errors: 0 introduced, 0 fixed \(\d+ files checked by typescript-go /);
    expect(await read("src/geometry.ts")).toBe(TS_PROJECT["src/geometry.ts"].replace("totalArea", "sumOfAreas"));
    expect(await read("src/main.ts")).toBe(TS_PROJECT["src/main.ts"].replaceAll("totalArea", "sumOfAreas"));
    expect(await read("src/imports.ts")).toContain("import { sumOfAreas } from");
    const refs = await fx.tools.text("findReferences", { file: "src/geometry.ts", line: 4, symbol: "sumOfAreas", verbosity: "minimal" });
    expect(refs.split("\n")[0]).toBe("4 references to `sumOfAreas` in 3 files (complete):");
    // Only the fixture's own error is left, in every file the rename touched.
    for (const file of ["src/geometry.ts", "src/imports.ts"])
      expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file, severity: "error" })).diagnostics).toEqual([]);
    const main = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts" });
    expect(main.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "8:14 TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it("an edit that would break the build is held back with onlyIfNoNewErrors, and its new errors listed", async () => {
    // Renaming to a name that is already taken in main.ts (`main`) makes a duplicate.
    const text = await fx.tools.text("renameSymbol", {
      file: "src/main.ts",
      line: 8,
      symbol: "broken",
      newName: "main",
      onlyIfNoNewErrors: true,
    });
    const lines = text.split("\n");
    expect(lines[0]).toMatch(
      /^NOT APPLIED: would rename `broken` to `main`, but it would introduce \d+ errors? \(onlyIfNoNewErrors\); nothing was written\.$/,
    );
    expect(lines[2]).toBe("introduced:");
    expect(lines[3]).toMatch(/^ {2}\+ src\/main\.ts:\d+:\d+ error ts\(2\d+\): /);
    expect(await read("src/main.ts")).toBe(TS_PROJECT["src/main.ts"].replaceAll("totalArea", "sumOfAreas"));
    // The server was given the file's content back: the next answers are for what is on disk.
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts" })).counts.error).toBe(1);
  });

  it("previewCodeAction and applyCodeAction add the missing import by title, and say the error is fixed", async () => {
    await fx.write("src/fixme.ts", ["export const c = new Circle(2);", ""].join("\n"));
    const listed = await fx.tools.text("getCodeActions", { file: "src/fixme.ts", startLine: 1 });
    expect(listed).toContain("src/fixme.ts:1:22 error ts(2304): Cannot find name 'Circle'.");
    expect(listed).toContain('1. [quickfix] Add import from "./shapes"');
    const missing = await fx.tools.failure("applyCodeAction", { file: "src/fixme.ts", startLine: 1, title: "no such action" });
    expect(missing).toMatchObject({
      code: "code_action_not_found",
      error: 'No code action titled "no such action" for src/fixme.ts lines 1-1; offered: "Add import from "./shapes""',
    });
    const preview = await fx.tools.text("previewCodeAction", { file: "src/fixme.ts", startLine: 1, title: "add import" });
    expect(preview.split("\n").slice(0, 4)).toEqual([
      'Would apply "Add import from "./shapes"": 1 file (dry run; nothing written).',
      expect.stringMatching(/^Errors: 0 introduced, 1 fixed \(\d+ files checked by /),
      "fixed:",
      "  - src/fixme.ts:1:22 error ts(2304): Cannot find name 'Circle'.",
    ]);
    expect(await read("src/fixme.ts")).toBe("export const c = new Circle(2);\n");
    const applied = await fx.tools.text("applyCodeAction", {
      file: "src/fixme.ts",
      startLine: 1,
      title: 'Add import from "./shapes"',
      onlyIfNoNewErrors: true,
    });
    expect(applied.split("\n")[0]).toBe('Applied "Add import from "./shapes"": 1 file written together.');
    // Once written, TypeScript's own compiler checked the project too.
    expect(applied.split("\n")[1]).toMatch(
      /^Errors: 0 introduced, 1 fixed \(.*; and by tsgo \(CLI\) over 1 tsconfig project \(tsconfig\.json\): 0 introduced\)\.$/,
    );
    expect(await read("src/fixme.ts")).toMatch(/^import \{ Circle \} from "\.\/shapes(\.js)?";\n\nexport const c = new Circle\(2\);\n$/);
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/fixme.ts" })).diagnostics).toEqual([]);
  });

  it("organizeImports sorts and drops unused imports; a dry run first", async () => {
    const dry = await fx.tools.text("organizeImports", { file: "src/imports.ts", dryRun: true });
    expect(dry.split("\n")[0]).toBe("Would organize the imports of src/imports.ts: 1 file (dry run; nothing written).");
    const done = await fx.tools.text("organizeImports", { file: "src/imports.ts" });
    expect(done.split("\n")[0]).toBe("Organized the imports of src/imports.ts: 1 file written together.");
    expect(done.split("\n")[1]).toMatch(/; and by tsgo \(CLI\) over 1 tsconfig project \(tsconfig\.json\): 0 introduced\)\.$/);
    expect(await read("src/imports.ts")).toBe(
      ['import { Circle } from "./shapes.js";', "", "export const one = new Circle(1);", ""].join("\n"),
    );
    expect(await fx.tools.text("organizeImports", { file: "src/imports.ts" })).toBe(
      `The imports of src/imports.ts are already organized (${done.match(/checked by ([^,)]+)/)?.[1] ?? ""}).`,
    );
  });

  it("formatRange formats only the lines asked; formatDocument formats what no CLI takes through the server", async () => {
    const text = await fx.tools.text("formatRange", { file: "src/ugly.ts", startLine: 4, endLine: 4 });
    expect(text.split("\n")[0]).toBe("Formatted lines 4-4 of src/ugly.ts: 1 file written together.");
    expect(await read("src/ugly.ts")).toBe(
      ["export function ugly( a:number,b:number ){", "return a+b", "}", "export const x = 1;", ""].join("\n"),
    );
    // No formatter CLI takes C: clangd formats it.
    const preview = await fx.tools.text("formatDocument", { file: "native/ugly.c", preview: true });
    expect(preview.split("\n")[0]).toBe("native/ugly.c would change (language server): lines 1-1 changed (1 lines became 1).");
    // clangd has the file (it formatted it), so the answer says what the write did to its diagnostics.
    expect(await fx.tools.text("formatDocument", { file: "native/ugly.c" })).toMatch(
      /^Formatted native\/ugly\.c with language server: lines 1-1 changed \(1 lines became 1\)\.\nDiagnostics \(clangd[^)]*\): unchanged, 0 in the file$/,
    );
    expect(await read("native/ugly.c")).toBe("int add(int a, int b) { return a + b; }\n");
  });

  it("getDiagnostics answers from the language server for one file, and from the compiler and the servers for the workspace, in one code style", async () => {
    const one = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts", severity: "error" });
    expect(one.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(["src/main.ts:8:14 TS2322"]);
    expect(one.sources).toContain((await fx.lsp.status()).servers.find((s) => s.id === "tsgo")?.server);
    const all = await fx.tools.data<Diagnostics>("getDiagnostics", { severity: "error" });
    expect(all.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(["src/main.ts:8:14 TS2322"]);
    expect(all.skipped).toEqual([]);
    expect(all.sources).toContain("tsgo -p tsconfig.json");
  });
});

describe("edits on Python (pyright, push diagnostics)", () => {
  let fx: LspFixture;

  beforeAll(async () => {
    fx = await lspFixture(PY_PROJECT);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("renames a class across modules and re-checks both", async () => {
    const rename = () => fx.tools.text("renameSymbol", { file: "zoo/animals.py", line: 6, symbol: "Dog", newName: "Hound" });
    let text = await rename();
    // pyright indexes in the background: a rename answered before its answers settle is only shown, and
    // the result says to call again (on a loaded machine that can take a while).
    // The two ways the bridge says so: src/lsp/whole-project.ts.
    const loading = /^NOT APPLIED: .*(had not finished its search for the project's source files|may still be loading the project)/;
    for (let tries = 0; tries < 3 && loading.test(text); tries++) text = await rename();
    expect(text.split("\n").slice(0, 2)).toEqual([
      "Renamed `Dog` to `Hound`: 2 files written together.",
      `Errors: 0 introduced, 0 fixed (2 files checked by ${text.split("checked by ")[1]?.split("\n")[0]}`,
    ]);
    expect(await readFile(join(fx.root, "zoo/app.py"), "utf8")).toContain("from zoo.animals import Hound, chorus");
    const diags = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "zoo/app.py", severity: "error" });
    expect(diags.diagnostics.map((d) => `${d.line}:${d.column}`)).toEqual(["8:14"]);
    expect(diags.sources[0]).toMatch(/pyright/i);
  }, 180_000); // 27 s quiet on three test workers
});
