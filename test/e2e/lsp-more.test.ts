// The language tools beyond navigation, on the real servers: tsgo for a TypeScript project and
// clangd for a C file in the same workspace (one start of each for the whole file). Batches,
// explanations, import trees with their cycle, decoded semantic tokens, folding and selection
// ranges, inlay hints and document links, a capability a server lacks named as not_supported, and
// speculative edits whose verdicts tsc confirms: an edit that breaks a caller in another file is
// refused and nothing is written.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TS_PROJECT } from "../fixtures/lsp-projects.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const SLOW = 120_000;
// TypeScript 7's native compiler (the checker tsgo serves): the same verdicts as tsc 5.9, in a
// fifth of the time on a loaded machine.
const TSC = join(process.cwd(), `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);

const C_FILES = {
  "native/util.h": ["int add(int left, int right);", ""].join("\n"),
  "native/main.c": [
    '#include "util.h"',
    "",
    "int add(int left, int right) { return left + right; }",
    "",
    "int main(void) { return add(1, 2); }",
    "",
  ].join("\n"),
};

/** tsc's errors for a project directory, as `file(line,col): error TSnnnn`. */
async function tscErrors(dir: string): Promise<string[]> {
  const run = await promisify(execFile)(TSC, ["--noEmit", "-p", dir], { cwd: dir }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? "",
  );
  return run
    .split("\n")
    .map((l) => /^(\S+)\((\d+),(\d+)\): error (TS\d+)/.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]}:${m[2]} ${m[4]}`);
}

const REPORT = [
  "export function report(values: number[]): string {",
  "  const total = values.reduce((a, b) => a + b, 0);",
  "  const mean = total / values.length;",
  "  return `mean ${mean}`;",
  "}",
  "",
].join("\n");

/** Adds a required parameter to totalArea: main.ts's call no longer compiles. */
const BREAKING = {
  file: "src/geometry.ts",
  oldText: "export function totalArea(shapes: Shape[]): number {",
  newText: "export function totalArea(shapes: Shape[], scale: number): number {",
};

describe("more language tools on TypeScript (tsgo) and C (clangd)", () => {
  let fx: LspFixture;
  /**
   * typescript-language-server (the refactor test's server) starts and loads the project while
   * the tests before it use tsgo and clangd: most of that test's cost, overlapped instead of added.
   */
  let refactorServerReady: Promise<unknown> = Promise.resolve();
  const read = (path: string) => readFile(join(fx.root, path), "utf8");

  beforeAll(async () => {
    fx = await lspFixture({ ...TS_PROJECT, ...C_FILES, "src/report.ts": REPORT });
    refactorServerReady = fx.tools
      .call("refactorAnalyze", { file: "src/report.ts", startLine: 2, endLine: 3 })
      .catch((err: unknown) => err);
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it(
    "batches answer every position concurrently, one failing position named with its error",
    async () => {
      const hover = await fx.tools.text("batchGetHover", {
        positions: [
          { file: "src/main.ts", line: 5, symbol: "totalArea" },
          { file: "src/shapes.ts", line: 5, symbol: "Circle" },
          { file: "nope.ts", line: 1 },
        ],
      });
      expect(hover.split("\n")[0]).toBe("getHover at 3 positions (1 failed):");
      expect(hover).toContain("## src/main.ts:5 totalArea\n```typescript\n(alias) function totalArea(shapes: Shape[]): number\n```");
      expect(hover).toContain("## src/shapes.ts:5 Circle\n```typescript\nclass Circle");
      expect(hover).toContain("## nope.ts:1\nERROR file_not_found:");
      const defs = await fx.tools.text("batchGoToDefinition", {
        positions: [
          { file: "src/main.ts", line: 5, symbol: "totalArea" },
          { file: "src/main.ts", line: 5, symbol: "Circle" },
        ],
      });
      expect(defs).toContain("src/geometry.ts:4:17  export function totalArea(shapes: Shape[]): number {");
      expect(defs).toContain("src/shapes.ts:5:14  export class Circle implements Shape {");
      const impls = await fx.tools.text("batchFindImplementations", { positions: [{ file: "src/shapes.ts", line: 1, symbol: "Shape" }] });
      expect(impls).toContain("2 implementations of `Shape`");
      const tooMany = await fx.tools.call("batchGetHover", {
        positions: Array.from({ length: 11 }, () => ({ file: "src/main.ts", line: 1 })),
      });
      expect(tooMany.isError).toBe(true);
    },
    SLOW,
  );

  it(
    "explainSymbol: signature, docs, definition, reference count and callers in one answer",
    async () => {
      const text = await fx.tools.text("explainSymbol", { file: "src/geometry.ts", line: 4, symbol: "totalArea" });
      expect(text.split("\n")).toEqual([
        expect.stringMatching(/^`totalArea` at src\/geometry.ts:4:17 \(typescript-go /),
        "Signature: function totalArea(shapes: Shape[]): number",
        "Docs: Sums the areas of all shapes.",
        "Defined at:",
        "  src/geometry.ts:4:17  export function totalArea(shapes: Shape[]): number {",
        "References: 1 in 1 file, declaration not counted (complete)",
        "Callers:",
        "  1 caller:",
        "    main  src/main.ts:5:10",
      ]);
    },
    SLOW,
  );

  it(
    "explainDiagnostic: the error, the code around it, the definition and the fixes on offer",
    async () => {
      const text = await fx.tools.text("explainDiagnostic", { file: "src/main.ts", line: 8 });
      const lines = text.split("\n");
      expect(lines[0]).toBe("src/main.ts:8:14 error ts(2322): Type 'string' is not assignable to type 'number'.");
      expect(text).toContain('  > 8 | export const broken: number = "oops";');
      expect(text).toContain("Definition of `broken`:\n  src/main.ts:8:14");
      expect(text).toContain("Fixes on offer:");
      const none = await fx.tools.call("explainDiagnostic", { file: "src/main.ts", line: 2 });
      expect(none.isError).toBe(true);
    },
    SLOW,
  );

  it(
    "getImportTree resolves imports through the server and finds the cycle",
    async () => {
      const tree = await fx.tools.text("getImportTree", { file: "src/main.ts" });
      expect(tree.split("\n").slice(1)).toEqual([
        '  src/shapes.ts ("./shapes.js", line 1)',
        '  src/geometry.ts ("./geometry.js", line 2)',
        '    src/shapes.ts ("./shapes.js", line 1)',
        "Cycles: none among the files walked.",
      ]);
      const cycle = await fx.tools.text("getImportTree", { file: "src/cycle-a.ts" });
      expect(cycle).toContain("Cycles (1):\n  src/cycle-a.ts -> src/cycle-b.ts -> src/cycle-a.ts");
    },
    SLOW,
  );

  it(
    "getImportedSignatures: each imported name's signature, by module",
    async () => {
      const text = await fx.tools.text("getImportedSignatures", { file: "src/main.ts" });
      expect(text.split("\n").slice(1)).toEqual([
        'from "./shapes.js" (line 1):',
        "  Circle: (alias) class Circle",
        "  Square: (alias) class Square",
        'from "./geometry.js" (line 2):',
        "  totalArea: (alias) function totalArea(shapes: Shape[]): number",
      ]);
    },
    SLOW,
  );

  it(
    "semantic tokens decoded to names; folding and selection ranges",
    async () => {
      const tokens = await fx.tools.text("getSemanticTokens", { file: "src/geometry.ts", startLine: 4, endLine: 4 });
      expect(tokens.split("\n").slice(1)).toEqual([
        "4:17 totalArea function [declaration]",
        "4:27 shapes parameter [declaration]",
        "4:35 Shape interface",
      ]);
      const folds = await fx.tools.text("foldingRanges", { file: "src/shapes.ts" });
      expect(folds).toContain("\n5-10  export class Circle implements Shape {");
      const selection = await fx.tools.text("selectionRanges", { file: "src/main.ts", line: 5, symbol: "totalArea" });
      expect(selection.split("\n").slice(1, 4)).toEqual([
        "5:10-5:19  totalArea",
        "5:10-5:51  totalArea([new Circle(1), new Square(2)])",
        "5:3-5:52  return totalArea([new Circle(1), new Square(2)]);",
      ]);
    },
    SLOW,
  );

  it(
    "a method no TypeScript server has is not_supported, naming the servers",
    async () => {
      const links = await fx.tools.call("getDocumentLinks", { file: "src/main.ts" });
      expect(links.isError).toBe(true);
      expect(JSON.stringify(links)).toContain("tsgo: has no textDocument/documentLink");
    },
    SLOW,
  );

  it.skipIf(missingProgram("clangd", ["--version"]))(
    "clangd: parameter-name inlay hints (or not_supported by clangd 14), a document link to the header",
    async () => {
      const hints = await fx.tools.call("getInlayHints", { file: "native/main.c" });
      const said = JSON.stringify(hints);
      // clangd before 15 offers its hints only through its own clangd/inlayHints extension.
      if (hints.isError) expect(said).toContain("clangd: has no textDocument/inlayHint");
      else expect(said).toContain("5:29 parameter left:");
      const links = await fx.tools.text("getDocumentLinks", { file: "native/main.c" });
      expect(links).toContain('1:10-1:18 "util.h" -> native/util.h');
    },
    SLOW,
  );

  it("getHoverAtCursor says it needs the extension when it is not connected", async () => {
    const result = await fx.tools.call("getHoverAtCursor", {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain("needs the VS Code extension, which is not connected");
  });

  it(
    "simulateEdit: a signature change breaks the caller in another file; nothing is written, and tsc agrees",
    async () => {
      const text = await fx.tools.text("simulateEdit", { edits: [BREAKING] });
      expect(text.split("\n")[0]).toBe("Would apply the edit: 1 file (dry run; nothing written).");
      expect(text).toMatch(/Errors: 1 introduced, 0 fixed/);
      expect(text).toMatch(/\+ src\/main.ts:5:\d+ error ts\(2554\): Expected 2 arguments, but got 1\./);
      expect(await read("src/geometry.ts")).toBe(TS_PROJECT["src/geometry.ts"]);
      // The compiler on a copy with the edit made says the same.
      const copy = await mkdtemp(join(tmpdir(), "lsp-more-tsc-"));
      try {
        await cp(fx.root, copy, { recursive: true });
        await writeFile(join(copy, BREAKING.file), TS_PROJECT["src/geometry.ts"].replace(BREAKING.oldText, BREAKING.newText));
        expect(await tscErrors(copy)).toEqual(["src/main.ts:5 TS2554", "src/main.ts:8 TS2322"]);
      } finally {
        await rm(copy, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it(
    "safeApplyEdit refuses the breaking edit and changes nothing; a harmless one is written",
    async () => {
      const refused = await fx.tools.text("safeApplyEdit", { edits: [BREAKING] });
      expect(refused.split("\n")[0]).toMatch(
        /^NOT APPLIED: would apply the edit, but it would introduce 1 error \(safeApplyEdit\); nothing was written\.$/,
      );
      expect(await read("src/geometry.ts")).toBe(TS_PROJECT["src/geometry.ts"]);
      // The files are byte for byte the fixture's, whose one error tsc names in the simulateEdit test.
      expect(await read("src/main.ts")).toBe(TS_PROJECT["src/main.ts"]);
      const fixed = await fx.tools.text("safeApplyEdit", {
        edits: [{ file: "src/main.ts", startLine: 8, newText: 'export const broken: string = "oops";' }],
      });
      expect(fixed.split("\n")[0]).toBe("Applied the edit: 1 file written together.");
      expect(fixed).toMatch(/Errors: 0 introduced, 1 fixed/);
      expect(await read("src/main.ts")).toContain('export const broken: string = "oops";');
      expect(await tscErrors(fx.root)).toEqual([]);
    },
    SLOW,
  );

  it(
    "simulateChain: the break of step 1 is mended by step 2",
    async () => {
      const text = await fx.tools.text("simulateChain", {
        steps: [
          { title: "add scale", edits: [BREAKING] },
          { title: "pass it", edits: [{ file: "src/main.ts", oldText: "new Square(2)])", newText: "new Square(2)], 1)" }] },
        ],
      });
      const lines = text.split("\n");
      expect(lines[0]).toMatch(/^2 steps simulated by typescript-go .*, nothing written; after the last: no new error\.$/);
      expect(lines[1]).toMatch(/^Step 1 \(add scale\): 1 error introduced, 0 fixed so far \(this step: \+1 -0;/);
      expect(text).toMatch(/Step 2 \(pass it\): 0 errors introduced, 0 fixed so far \(this step: \+0 -1;/);
      expect(await read("src/geometry.ts")).toBe(TS_PROJECT["src/geometry.ts"]);
    },
    SLOW,
  );

  it(
    "speculative edits compose with a transaction: checked (alone and as a chain) on top of what it stages, staged there, written by its commit",
    async () => {
      const mainBefore = await read("src/main.ts");
      const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction", {});
      await fx.tools.text("stageEdit", {
        transactionId,
        filePath: BREAKING.file,
        oldContent: BREAKING.oldText,
        newContent: BREAKING.newText,
      });
      const mend = { file: "src/main.ts", oldText: "new Square(2)])", newText: "new Square(2)], 1)" };
      const simulated = await fx.tools.text("simulateEdit", { edits: [mend], transactionId });
      expect(simulated.split("\n")[0]).toBe(`Would apply what ${transactionId} stages and the edit: 2 files (dry run; nothing written).`);
      expect(simulated).toMatch(/Errors: 0 introduced/);
      expect(simulated).toContain(
        `On top of ${transactionId} (1 staged file, introducing 1 error by themselves): this edit adds 0, mends 1.`,
      );
      const worse = { file: "src/main.ts", oldText: "export function main(): number {", newText: "export function main(): string {" };
      const chained = (
        await fx.tools.text("simulateChain", {
          steps: [
            { title: "mend", edits: [mend] },
            { title: "worse", edits: [worse] },
          ],
          transactionId,
        })
      ).split("\n");
      expect(chained[0]).toMatch(
        new RegExp(
          `^2 steps simulated by typescript-go .* on top of ${transactionId} \\(1 staged file, introducing 1 error by themselves\\), nothing written; after the last: 1 new error\\.$`,
        ),
      );
      expect(chained[1]).toMatch(/^Step 1 \(mend\): 0 errors introduced, 1 fixed so far \(this step: \+0 -0;/);
      expect(chained[2]).toMatch(/^Step 2 \(worse\): 1 error introduced, 1 fixed so far \(this step: \+1 -0;/);
      expect(chained[3]).toMatch(/^ {2}\+ src\/main.ts:5:\d+ error ts\(2322\)/);
      const refused = await fx.tools.text("safeApplyEdit", { edits: [mend, worse], transactionId });
      expect(refused.split("\n")[0]).toMatch(new RegExp(`^NOT STAGED: it would add 1 error to what ${transactionId} stages`));
      expect(refused).toMatch(/\+ src\/main.ts:5:\d+ error ts\(2322\)/);
      const staged = await fx.tools.text("safeApplyEdit", { edits: [mend], transactionId });
      expect(staged.split("\n")[0]).toMatch(
        new RegExp(`^Staged in ${transactionId}: 1 file \\(src/main.ts\\); nothing is written until commitTransaction`),
      );
      expect(await read("src/main.ts")).toBe(mainBefore);
      expect(await read(BREAKING.file)).toBe(TS_PROJECT["src/geometry.ts"]);
      const committed = await fx.tools.text("commitTransaction", { transactionId });
      expect(committed.split("\n")[0]).toBe(`Committed ${transactionId}: 2 files written together.`);
      expect(await read("src/main.ts")).toContain("new Square(2)], 1)");
      expect(await read("src/main.ts")).not.toContain("main(): string");
      expect(await tscErrors(fx.root)).toEqual([]);
    },
    SLOW,
  );

  it("refactors: tsgo has none, typescript-language-server extracts (its _typescript.rename answered), named as asked; tsc compiles it", async () => {
    await refactorServerReady;
    const analyzed = await fx.tools.text("refactorAnalyze", { file: "src/report.ts", startLine: 2, endLine: 3 });
    expect(analyzed.split("\n")[0]).toMatch(
      /^\d+ refactorings for src\/report.ts 2:3-3:38 \(typescript-language-server .*\(typescript-go .* offered none\)\):$/,
    );
    expect(analyzed).toContain('refactor.extract.function: "Extract to function in module scope"');
    const text = await fx.tools.text("refactorExtractFunction", { file: "src/report.ts", startLine: 2, endLine: 3, name: "meanOf" });
    expect(text.split("\n")[0]).toBe('Applied "Extract to function in module scope": 1 file written together.');
    expect(text).toContain("Named `meanOf` (the server's placeholder was `newFunction`).");
    const written = await read("src/report.ts");
    expect(written).toContain("const mean = meanOf(values);");
    expect(written).toContain("function meanOf(values: number[]) {");
    expect((await tscErrors(fx.root)).filter((e) => e.startsWith("src/report.ts"))).toEqual([]);
  }, 240_000);
});
