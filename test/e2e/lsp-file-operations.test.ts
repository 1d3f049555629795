// WorkspaceEdits that rename and delete files, with TypeScript 7's native server (tsgo 7.0.2): it
// answers a rename of an import path ("./shapes.js") with a RenameFile of the module plus text edits
// of every importer, because the bridge says it supports resource operations. The bridge applies it
// like any edit: checked through the jail, errors computed on the proposed state (the moved file
// opened at its new path, the old one closed and said deleted), all files or none, or only shown.
// Deletions and renames followed by edits to the new URI are built by hand (no installed server sends
// them for TypeScript) and applied through the same path, with tsgo computing the errors.
import { chmod, readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { LanguageServer } from "../../src/lsp/language-server.ts";
import { renderOutcome } from "../../src/tools/lsp/edit-outcome.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const SHAPES = "export function area(r: number): number {\n  return 3 * r * r;\n}\n";
const PROJECT = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true },
    include: ["src"],
  }),
  "src/shapes.ts": SHAPES,
  "src/main.ts": 'import { area } from "./shapes.js";\n\nexport const a = area(2);\n',
  "src/other.ts": 'import { area } from "./shapes.js";\n\nexport const b = area(3);\n',
  "src/lonely.ts": "export const lonely = 1;\n",
  "src/util.ts": "export const one = 1;\n",
  "src/uses-util.ts": 'import { one } from "./util.js";\n\nexport const two = one + 1;\n',
  "src/dir/inner.ts": "export const inner = 1;\n",
};

interface Diagnostics {
  diagnostics: { file: string; line: number; message: string }[];
}

const signal = () => AbortSignal.timeout(60_000);

/** The fixture's tools, and a WorkspaceEdit applied as the edit tools apply a server's. */
function helpers(fixture: () => LspFixture) {
  const root = () => fixture().root;
  const serverOf = async (file: string): Promise<LanguageServer> =>
    (await fixture().lsp.document(file, { method: "textDocument/definition", signal: signal() })).server;
  return {
    read: (path: string) => readFile(join(root(), path), "utf8").catch(() => undefined),
    uri: (path: string) => `file://${join(root(), path)}`,
    serverOf,
    async apply(edit: WorkspaceEdit, opts: { dryRun?: boolean; onlyIfNoNewErrors?: boolean } = {}) {
      const server = await serverOf("src/main.ts");
      const outcome = await fixture().lsp.applyEdit(server, edit, {
        dryRun: opts.dryRun ?? false,
        onlyIfNoNewErrors: opts.onlyIfNoNewErrors ?? false,
        signal: signal(),
      });
      return { outcome, text: await renderOutcome(outcome, { done: "Applied", would: "Would apply", server: server.serverName }) };
    },
  };
}

describe("renames of files through tsgo", () => {
  let fx: LspFixture;
  const { read, uri, serverOf, apply } = helpers(() => fx);

  beforeAll(async () => {
    fx = await lspFixture(PROJECT);
    await chmod(join(fx.root, "src/shapes.ts"), 0o640);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("a dry run of renaming an import path shows the file's move and the importers' edits, and changes nothing", async () => {
    const text = await fx.tools.text("renameSymbol", {
      file: "src/main.ts",
      line: 1,
      symbol: "./shapes.js",
      newName: "./circles.js",
      dryRun: true,
    });
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^Would rename `\.\/shapes\.js` to `\.\/circles\.js`: \d files \(dry run; nothing written\)\.$/);
    expect(lines[1]).toMatch(/^Errors: 0 introduced, 0 fixed \(\d+ files checked by typescript-go /);
    expect(text).toContain("Would rename src/shapes.ts -> src/circles.ts");
    expect(text).toContain('-import { area } from "./shapes.js";\n+import { area } from "./circles.js";');
    expect(text).toContain("Would edit src/other.ts (+1 -1)");
    expect(await read("src/shapes.ts")).toBe(SHAPES);
    expect(await read("src/circles.ts")).toBeUndefined();
    expect(await read("src/main.ts")).toBe(PROJECT["src/main.ts"]);
    // The server was given the files' content back: no error, and the module is where it is on disk.
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts" })).diagnostics).toEqual([]);
    expect(await fx.tools.text("goToDefinition", { file: "src/main.ts", line: 3, symbol: "area", verbosity: "minimal" })).toContain(
      "src/shapes.ts:1:",
    );
  });

  it("renaming an import path moves the module (its mode kept) and updates every importer, in one commit", async () => {
    const text = await fx.tools.text("renameSymbol", { file: "src/main.ts", line: 1, symbol: "./shapes.js", newName: "./circles.js" });
    expect(text.split("\n")[0]).toMatch(/^Renamed `\.\/shapes\.js` to `\.\/circles\.js`: \d files written together\.$/);
    expect(text.split("\n")[1]).toMatch(/^Errors: 0 introduced, 0 fixed /);
    expect(text).toContain("Renamed src/shapes.ts -> src/circles.ts");
    expect(await read("src/shapes.ts")).toBeUndefined();
    expect(await read("src/circles.ts")).toBe(SHAPES);
    expect((await stat(join(fx.root, "src/circles.ts"))).mode & 0o777).toBe(0o640);
    expect(await read("src/main.ts")).toBe(PROJECT["src/main.ts"].replace("./shapes.js", "./circles.js"));
    expect(await read("src/other.ts")).toBe(PROJECT["src/other.ts"].replace("./shapes.js", "./circles.js"));
    expect(await fx.tools.text("goToDefinition", { file: "src/main.ts", line: 3, symbol: "area", verbosity: "minimal" })).toContain(
      "src/circles.ts:1:",
    );
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/other.ts" })).diagnostics).toEqual([]);
  });

  it("a rename followed by text edits addressed to the new URI edits the moved content", async () => {
    const edit: WorkspaceEdit = {
      documentChanges: [
        { kind: "rename", oldUri: uri("src/lonely.ts"), newUri: uri("src/alone.ts") },
        {
          textDocument: { uri: uri("src/alone.ts"), version: null },
          edits: [
            {
              range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
              newText: "export const alone: number = lonely;\n",
            },
          ],
        },
      ],
    };
    const { text } = await apply(edit);
    expect(text.split("\n").slice(0, 2)).toEqual([
      "Applied: 1 file written together.",
      expect.stringMatching(/^Errors: 0 introduced, 0 fixed /),
    ]);
    expect(text).toContain("Renamed src/lonely.ts -> src/alone.ts");
    expect(text).toContain("Edited src/alone.ts (+1 -0)");
    expect(await read("src/lonely.ts")).toBeUndefined();
    expect(await read("src/alone.ts")).toBe("export const lonely = 1;\nexport const alone: number = lonely;\n");
  });

  it("refuses to delete or move a directory, and an edit of a file an earlier step removed, changing nothing", async () => {
    const server = await serverOf("src/main.ts");
    const run = (edit: WorkspaceEdit) => fx.lsp.applyEdit(server, edit, { dryRun: false, onlyIfNoNewErrors: false, signal: signal() });
    await expect(run({ documentChanges: [{ kind: "delete", uri: uri("src/dir"), options: { recursive: true } }] })).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("src/dir, which is a directory"),
    });
    await expect(run({ documentChanges: [{ kind: "rename", oldUri: uri("src/dir"), newUri: uri("src/moved") }] })).rejects.toMatchObject({
      code: "not_supported",
    });
    await expect(
      run({
        documentChanges: [
          { kind: "delete", uri: uri("src/main.ts") },
          {
            textDocument: { uri: uri("src/main.ts"), version: null },
            edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: "x" }],
          },
        ],
      }),
    ).rejects.toMatchObject({ code: "file_not_found" });
    await expect(
      run({ documentChanges: [{ kind: "rename", oldUri: uri("src/main.ts"), newUri: "file:///tmp/outside.ts" }] }),
    ).rejects.toMatchObject({ code: "outside_workspace" });
    expect((await readdir(join(fx.root, "src"))).sort()).toEqual([
      "alone.ts",
      "circles.ts",
      "dir",
      "main.ts",
      "other.ts",
      "uses-util.ts",
      "util.ts",
    ]);
    expect(await read("src/dir/inner.ts")).toBe(PROJECT["src/dir/inner.ts"]);
  });
});

// Its own workspace: tsgo re-reads the disk when it hears of another file's creation, so the
// watcher's events of an earlier write in the same workspace could undo the deletion it is told of
// (see apply-edit.ts); here nothing else changes meanwhile.
describe("deletions of files through tsgo", () => {
  let fx: LspFixture;
  const { read, uri, serverOf, apply } = helpers(() => fx);

  beforeAll(async () => {
    fx = await lspFixture(PROJECT);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("deleting a module that an open file imports: the importer's new error is computed before anything is written", async () => {
    await serverOf("src/uses-util.ts");
    const edit: WorkspaceEdit = { documentChanges: [{ kind: "delete", uri: uri("src/util.ts") }] };
    const dry = await apply(edit, { dryRun: true });
    expect(dry.text.split("\n")[0]).toBe("Would apply: 1 file (dry run; nothing written).");
    expect(dry.outcome.introduced.map((e) => `${e.file} ${e.diagnostic.message}`)).toEqual([
      "src/uses-util.ts Cannot find module './util.js' or its corresponding type declarations.",
    ]);
    expect(dry.text).toContain("Would delete src/util.ts (1 lines)");
    expect(await read("src/util.ts")).toBe(PROJECT["src/util.ts"]);
    // Put back in the server's view too: the importer has no error while the file is there.
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/uses-util.ts" })).diagnostics).toEqual([]);
    const held = await apply(edit, { onlyIfNoNewErrors: true });
    expect(held.text.split("\n")[0]).toBe(
      "NOT APPLIED: would apply, but it would introduce 1 error (onlyIfNoNewErrors); nothing was written.",
    );
    expect(await read("src/util.ts")).toBe(PROJECT["src/util.ts"]);
    // Put back in the server's view too: the importer has no error while the file is there.
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/uses-util.ts" })).diagnostics).toEqual([]);
    const done = await apply(edit);
    expect(done.text.split("\n")[0]).toBe("Applied: 1 file written together.");
    expect(done.text).toContain("Deleted src/util.ts (1 lines)");
    expect(await read("src/util.ts")).toBeUndefined();
    expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/uses-util.ts" })).diagnostics.map((d) => d.message)).toEqual([
      "Cannot find module './util.js' or its corresponding type declarations.",
    ]);
  });
});

describe("gopls renaming a package moves its directory: refused clearly", () => {
  let fx: LspFixture;
  const GO = {
    "go.mod": "module example.com/m\n\ngo 1.19\n",
    "shapes/shapes.go": "package shapes\n\nfunc Area(r int) int { return 3 * r * r }\n",
    "main.go": 'package main\n\nimport "example.com/m/shapes"\n\nfunc main() { println(shapes.Area(2)) }\n',
  };

  beforeAll(async () => {
    fx = await lspFixture(GO);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("says the edit moves a directory and changes nothing", async () => {
    const failure = await fx.tools.failure("renameSymbol", { file: "shapes/shapes.go", line: 1, symbol: "shapes", newName: "forms" });
    expect(failure).toMatchObject({
      code: "not_supported",
      error: expect.stringMatching(/^The language server's edit renames shapes, which is a directory; /),
    });
    expect(failure.suggestion).toContain("renameFile");
    expect(await readFile(join(fx.root, "shapes/shapes.go"), "utf8")).toBe(GO["shapes/shapes.go"]);
    expect(await readFile(join(fx.root, "main.go"), "utf8")).toBe(GO["main.go"]);
    expect((await readdir(fx.root)).sort()).toEqual(["go.mod", "main.go", "shapes"]);
  }, 120_000);
});
