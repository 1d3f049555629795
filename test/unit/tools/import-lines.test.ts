// The import statements getDocumentSymbols leaves out of an outline, in the languages the bridge
// has servers for; a statement over several lines is all of it, and nothing else is taken.
import { describe, expect, it } from "vitest";
import { importLines } from "../../../src/tools/lsp/import-lines.ts";

const lines = (text: string) => [...importLines(text.split("\n"))].sort((a, b) => a - b);

describe("importLines", () => {
  it("finds TypeScript imports, re-exports and require, across lines, and nothing after them", () => {
    const ts = [
      'import { Circle, Square } from "./shapes.js";',
      "import {",
      "  totalArea,",
      "  type Shape,",
      '} from "./geometry.js";',
      'export { area } from "./area.js";',
      'export * from "./all.js";',
      'const fs = require("node:fs");',
      "",
      "export function main(): number {",
      "  const important = 1; // import in a comment is not a statement start",
      "  return important;",
      "}",
      "export const exported = { a: 1 };",
    ].join("\n");
    expect(lines(ts)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("finds Python, Rust, Go, C and C# imports", () => {
    expect(lines("import os\nfrom a.b import (\n  c,\n  d,\n)\n\ndef f():\n    pass")).toEqual([0, 1, 2, 3, 4]);
    expect(lines("use std::fmt;\npub use crate::{\n  a,\n  b,\n};\nfn main() {}")).toEqual([0, 1, 2, 3, 4]);
    expect(lines('package main\n\nimport (\n  "fmt"\n)\n\nfunc main() {}')).toEqual([2, 3, 4]);
    expect(lines('#include <stdio.h>\n# include "x.h"\nint main() { return 0; }')).toEqual([0, 1]);
    expect(lines("using System;\nnamespace A { class B {} }")).toEqual([0]);
  });

  it("takes no ordinary declaration for an import", () => {
    expect(lines("const imported = 1;\nfunction useThing() {}\nlet fromX = 2;\nclass Importer {}")).toEqual([]);
  });
});
