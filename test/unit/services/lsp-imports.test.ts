// The lexical half of getImportTree and getImportedSignatures (import statements per language, each
// specifier and name at its position) and the cycle finder, which must stay linear on a long chain.
import { describe, expect, it } from "vitest";
import { importStatements } from "../../../src/services/lsp-imports/import-statements.ts";
import { cyclesOf } from "../../../src/services/lsp-imports/strongly-connected.ts";

describe("import statements", () => {
  it("TypeScript: named, default, namespace, side-effect, re-export, require and dynamic import", () => {
    const lines = [
      'import { a, b as c } from "./x.js";',
      'import D from "d";',
      'import * as ns from "./ns";',
      'import "./side";',
      'export { e } from "./e";',
      'const r = require("r");',
      'const m = await import("./m");',
    ];
    const found = importStatements(lines, "typescript");
    expect(found.map((s) => [s.specifier, s.line, s.character])).toEqual([
      ["./x.js", 0, 27],
      ["d", 1, 15],
      ["./ns", 2, 21],
      ["./side", 3, 8],
      ["./e", 4, 19],
      ["r", 5, 19],
      ["./m", 6, 24],
    ]);
    expect(found[0]?.names).toEqual([
      { local: "a", line: 0, character: 9 },
      { local: "c", line: 0, character: 17 },
    ]);
    expect(found[1]?.names.map((n) => n.local)).toEqual(["D"]);
    expect(found[2]?.names).toEqual([{ local: "ns", line: 2, character: 12 }]);
  });

  it("Python, Go and C", () => {
    expect(
      importStatements(["from .models import Dog, Cat as Kitty", "import os.path, sys"], "python").map((s) => [
        s.specifier,
        s.character,
        s.names.map((n) => n.local),
      ]),
    ).toEqual([
      [".models", 6, ["Dog", "Kitty"]],
      ["os.path", 10, []],
      ["sys", 16, []],
    ]);
    expect(
      importStatements(['import "fmt"', "import (", '\tstr "strings"', '\t"os"', ")"], "go").map((s) => [s.specifier, s.line]),
    ).toEqual([
      ["fmt", 0],
      ["strings", 2],
      ["os", 3],
    ]);
    expect(importStatements(['#include "util.h"', "#include <stdio.h>"], "c").map((s) => [s.specifier, s.character])).toEqual([
      ["util.h", 10],
      ["stdio.h", 10],
    ]);
  });
});

describe("cycles", () => {
  it("finds each strongly connected component of more than one file, and a self-import", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(cyclesOf(["e", "a", "b", "c", "d"], edges)).toEqual([["d"], ["a", "b", "c"]]);
    expect(cyclesOf(["x"], new Map([["x", ["y"]]]))).toEqual([]);
  });

  it("a chain of 20,000 files is walked without recursion", () => {
    const n = 20_000;
    const nodes = Array.from({ length: n }, (_, i) => `f${i}`);
    const edges = new Map(nodes.map((f, i) => [f, i + 1 < n ? [`f${i + 1}`] : ["f0"]]));
    const cycles = cyclesOf(nodes, edges);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(n);
  });
});
