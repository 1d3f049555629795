// The LSP tools on a real TypeScript project (imports, classes, an interface, an error and an import
// cycle) against the bridge's own TypeScript servers: exact locations and names for every tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TS_PROJECT } from "../fixtures/lsp-projects.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture(TS_PROJECT);
});

afterAll(async () => {
  await fx?.stop();
});

describe("navigation on TypeScript", () => {
  it("goToDefinition finds the function by line and name, no column", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "src/main.ts", line: 5, symbol: "totalArea" })).toBe(
      "1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17  export function totalArea(shapes: Shape[]): number {",
    );
  });

  it("goToDefinition takes a 1-based column instead, and a file:// URI, and verbose shows the lines around", async () => {
    const text = await fx.tools.text("goToDefinition", {
      file: `file://${fx.root}/src/main.ts`,
      line: 1,
      column: 10,
      verbosity: "verbose",
    });
    expect(text).toBe(
      [
        "1 definition of `Circle` (src/main.ts:1:10):",
        "src/shapes.ts:5:14",
        "    3 | }",
        "    4 | ",
        "  > 5 | export class Circle implements Shape {",
        "    6 |   constructor(readonly radius: number) {}",
        "    7 |   area(): number {",
      ].join("\n"),
    );
  });

  it("findReferences lists every use, complete, with the source lines", async () => {
    expect(await fx.tools.text("findReferences", { file: "src/geometry.ts", line: 4, symbol: "totalArea" })).toBe(
      [
        "3 references to `totalArea` in 2 files (complete):",
        "src/geometry.ts:4:17  export function totalArea(shapes: Shape[]): number {",
        'src/main.ts:2:10  import { totalArea } from "./geometry.js";',
        "src/main.ts:5:10  return totalArea([new Circle(1), new Square(2)]);",
      ].join("\n"),
    );
  });

  it("findReferences follows the import cycle, and minimal drops the source lines", async () => {
    expect(await fx.tools.text("findReferences", { file: "src/cycle-b.ts", line: 2, symbol: "fromB", verbosity: "minimal" })).toBe(
      ["3 references to `fromB` in 2 files (complete):", "src/cycle-a.ts:1:10", "src/cycle-a.ts:2:36", "src/cycle-b.ts:2:17"].join("\n"),
    );
  });

  it("finds the symbol on a nearby line when the line is one off, and says so", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "src/main.ts", line: 4, symbol: "totalArea", verbosity: "minimal" })).toBe(
      'NOTE: "totalArea" is on line 5 of src/main.ts, not 4: answered for line 5.\n1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17',
    );
  });

  it("findImplementations lists the classes implementing the interface", async () => {
    expect(await fx.tools.text("findImplementations", { file: "src/shapes.ts", line: 1, symbol: "Shape", verbosity: "minimal" })).toBe(
      "2 implementations of `Shape` (src/shapes.ts:1:18):\nsrc/shapes.ts:5:14\nsrc/shapes.ts:12:14",
    );
  });

  it("goToTypeDefinition goes from a value to its type", async () => {
    // "s" occurs twice on that line: the column says which.
    expect(
      await fx.tools.text("goToTypeDefinition", { file: "src/geometry.ts", line: 5, column: 30, symbol: "s", verbosity: "minimal" }),
    ).toBe("1 type definition of `s` (src/geometry.ts:5:30):\nsrc/shapes.ts:1:18");
  });

  it("goToDeclaration says plainly that no TypeScript server has it", async () => {
    const failure = await fx.tools.failure("goToDeclaration", { file: "src/main.ts", line: 5, symbol: "totalArea" });
    expect(failure.code).toBe("not_supported");
    expect(failure.error).toMatch(
      /^No language server for typescript here answers textDocument\/declaration \(tsgo: has no textDocument\/declaration; typescript-language-server: has no textDocument\/declaration\)$/,
    );
  });

  it("getDocumentSymbols is an indented outline", async () => {
    expect(await fx.tools.text("getDocumentSymbols", { file: "src/shapes.ts" })).toBe(
      [
        "src/shapes.ts (18 lines):",
        "Shape interface :1-3",
        "  area method :2",
        "Circle class :5-10",
        "  constructor constructor :6",
        "  radius property :6",
        "  area method :7-9",
        "Square class :12-17",
        "  constructor constructor :13",
        "  side property :13",
        "  area method :14-16",
      ].join("\n"),
    );
  });

  it("getDocumentSymbols leaves the imported names out, counted, unless includeImports", async () => {
    const outline = await fx.tools.text("getDocumentSymbols", { file: "src/main.ts" });
    expect(outline).toMatch(/^src\/main\.ts \(\d+ lines\):\nmain function :4-6\n/);
    expect(outline).not.toMatch(/^(Circle|Square|totalArea) /m);
    expect(outline).toMatch(/\n\(3 imported names left out; includeImports: true lists them\)$/);
    const all = await fx.tools.text("getDocumentSymbols", { file: "src/main.ts", includeImports: true });
    for (const name of ["Circle", "Square", "totalArea"]) expect(all).toMatch(new RegExp(`^${name} \\w+ :[12]$`, "m"));
    expect(all).not.toContain("left out");
  });

  it("getDocumentSymbols leaves what is inside a function's body out, counted, unless includeLocals", async () => {
    const outline = await fx.tools.text("getDocumentSymbols", { file: "src/geometry.ts" });
    expect(outline).toMatch(
      /^src\/geometry\.ts \(\d+ lines\):\ntotalArea function :4-6\n\(1 imported name left out; includeImports: true lists them\)\n\(1 name inside function bodies left out; includeLocals: true lists them\)$/,
    );
    const all = await fx.tools.text("getDocumentSymbols", { file: "src/geometry.ts", includeLocals: true });
    expect(all).toMatch(/^ {2}.*callback.* :5$/m);
    expect(all).not.toContain("inside function bodies");
  });

  it("searchWorkspaceSymbols and navigateToSymbolByName find symbols by name", async () => {
    const found = await fx.tools.text("searchWorkspaceSymbols", { query: "Squ" });
    expect(found.split("\n")[0]).toMatch(/^\d+ symbols? match "Squ":$/);
    expect(found).toContain("Square class  src/shapes.ts:12:14");
    const nav = await fx.tools.text("navigateToSymbolByName", { name: "totalArea" });
    expect(nav).toBe(
      [
        "1 definition of totalArea:",
        "totalArea function  src/geometry.ts:4:17",
        "    2 | ",
        "    3 | /** Sums the areas of all shapes. */",
        "  > 4 | export function totalArea(shapes: Shape[]): number {",
        "    5 |   return shapes.reduce((sum, s) => sum + s.area(), 0);",
        "    6 | }",
      ].join("\n"),
    );
    expect((await fx.tools.failure("navigateToSymbolByName", { name: "NoSuchThing" })).code).toBe("symbol_not_found");
  });

  it("getCallHierarchy shows callers and callees", async () => {
    const text = await fx.tools.text("getCallHierarchy", { file: "src/geometry.ts", line: 4, symbol: "totalArea" });
    const lines = text.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "totalArea function  src/geometry.ts:4:17",
      "  called by:",
      "    main function  src/main.ts:4:17  (at line 5)",
      "  calls:",
    ]);
    // A callee outside the workspace is named, never read.
    expect(lines.slice(4).sort()).toEqual([
      "    area method  src/shapes.ts:2:3",
      expect.stringMatching(/^ {4}reduce method {2}\(outside the workspace\) lib\.es5\.d\.ts:\d+:\d+$/),
    ]);
    const deeper = await fx.tools.text("getCallHierarchy", {
      file: "src/main.ts",
      line: 4,
      symbol: "main",
      direction: "outgoing",
      depth: 2,
    });
    expect(deeper).toContain("    totalArea function  src/geometry.ts:4:17\n      ");
  });

  it("getTypeHierarchy derives supertypes and subtypes where the server has no type hierarchy", async () => {
    const up = await fx.tools.text("getTypeHierarchy", { file: "src/shapes.ts", line: 5, symbol: "Circle", direction: "supertypes" });
    expect(up.split("\n").slice(0, 3)).toEqual([
      "Circle  src/shapes.ts:5:14  export class Circle implements Shape {",
      "  supertypes:",
      "    Shape  src/shapes.ts:1:18",
    ]);
    const down = await fx.tools.text("getTypeHierarchy", { file: "src/shapes.ts", line: 1, symbol: "Shape", direction: "subtypes" });
    expect(down.split("\n").slice(1, 4)).toEqual([
      "  subtypes:",
      "    src/shapes.ts:5:14  export class Circle implements Shape {",
      "    src/shapes.ts:12:14  export class Square implements Shape {",
    ]);
  });
});

describe("intelligence on TypeScript", () => {
  it("getHover, getTypeSignature and signatureHelp", async () => {
    const hover = await fx.tools.text("getHover", { file: "src/geometry.ts", line: 4, symbol: "totalArea" });
    expect(hover).toContain("function totalArea(shapes: Shape[]): number");
    expect(hover).toContain("Sums the areas of all shapes.");
    expect(await fx.tools.text("getTypeSignature", { file: "src/geometry.ts", line: 4, symbol: "totalArea" })).toBe(
      "function totalArea(shapes: Shape[]): number",
    );
    expect(await fx.tools.text("signatureHelp", { file: "src/main.ts", line: 5, column: 20 })).toMatch(
      /^\* totalArea\(shapes: Shape\[\]\): number\n {4}> shapes: Shape\[\]/,
    );
  });

  it("prepareRename names the range a rename would change", async () => {
    expect(await fx.tools.text("prepareRename", { file: "src/geometry.ts", line: 4, symbol: "totalArea" })).toBe(
      '`totalArea` can be renamed: src/geometry.ts:4:17-4:26 ("totalArea").',
    );
  });

  it("prepareRename and renameSymbol pass on the server's reason for refusing a standard-library method", async () => {
    const why = await fx.tools.text("prepareRename", { file: "src/geometry.ts", line: 5, symbol: "reduce" });
    expect(why).toBe(
      "Cannot rename `reduce` at src/geometry.ts:5:17: You cannot rename elements that are defined in the standard TypeScript library.",
    );
    const failure = await fx.tools.failure("renameSymbol", {
      file: "src/geometry.ts",
      line: 5,
      symbol: "reduce",
      newName: "fold",
      dryRun: true,
    });
    expect(failure.code).toBe("not_supported");
    // tsgo answers the rename itself with null rather than an error.
    expect(failure.error).toMatch(/cannot rename `reduce`/i);
  });

  it("jumpToFirstError and getCodeActions see the type error", async () => {
    const first = await fx.tools.text("jumpToFirstError", { file: "src/main.ts" });
    expect(first.split("\n")[0]).toBe("src/main.ts:8:14 error ts(2322): Type 'string' is not assignable to type 'number'.");
    expect(first).toContain('  > 8 | export const broken: number = "oops";');
    const actions = await fx.tools.text("getCodeActions", { file: "src/main.ts", startLine: 8 });
    expect(actions.split("\n").slice(0, 2)).toEqual([
      "Diagnostics in lines 8-8:",
      "  src/main.ts:8:14 error ts(2322): Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it("a position that names no symbol on or near the line is refused with the line shown", async () => {
    const failure = await fx.tools.failure("goToDefinition", { file: "src/main.ts", line: 8, symbol: "nowhere" });
    expect(failure.code).toBe("symbol_not_found");
    expect(failure.error).toContain('the line is: export const broken: number = "oops";');
    expect((await fx.tools.failure("goToDefinition", { file: "../outside.ts", line: 1, symbol: "x" })).code).toBe("outside_workspace");
  });
});
