// The pure halves of testTraceToSource and getChangeImpact: stack frames of every runtime the
// bridge serves, source map decoding and lookup (VLQ values from the spec's alphabet), the map a
// built file points to, and the changed lines of a `--unified=0` diff.
import { describe, expect, it } from "vitest";
import { parseUnifiedZero } from "../../../../src/services/analysis/changed-ranges.ts";
import { besideFile, decodeVlq, mapReference, SourceMap } from "../../../../src/services/analysis/source-map.ts";
import { failureMessage, stackFrames } from "../../../../src/services/analysis/stack-frames.ts";

describe("stack frames", () => {
  it("reads V8 stacks, vitest code frames, Python tracebacks, Go panics and test logs, each position once", () => {
    const output = [
      "Error: no price for plum",
      "    at price (file:///w/dist/pricing.js:6:35)",
      "    at async main (/w/src/main.ts:3:9)",
      "    at /w/src/anon.ts:1:2",
      "    at node:internal/modules/run_main:123:5",
      " ❯ test/cart.test.ts:12:7",
      'Traceback (most recent call last):\n  File "/w/zoo/app.py", line 5, in run',
      '  File "/w/zoo/main.py", line 2, in <module>',
      "panic: boom",
      "\t/w/geo/shapes.go:8 +0x1d",
      "    shapes_test.go:14: got 3, want 4",
      "    at price (file:///w/dist/pricing.js:6:35)",
    ].join("\n");
    expect(stackFrames(output)).toEqual([
      { file: "file:///w/dist/pricing.js", line: 6, column: 35, fn: "price" },
      { file: "/w/src/main.ts", line: 3, column: 9, fn: "main" },
      { file: "/w/src/anon.ts", line: 1, column: 2 },
      { file: "node:internal/modules/run_main", line: 123, column: 5 },
      { file: "test/cart.test.ts", line: 12, column: 7 },
      { file: "/w/zoo/app.py", line: 5, fn: "run" },
      { file: "/w/zoo/main.py", line: 2 },
      { file: "/w/geo/shapes.go", line: 8 },
      { file: "shapes_test.go", line: 14 },
    ]);
    expect(failureMessage(output)).toBe("Error: no price for plum");
    expect(failureMessage("AssertionError: expected 3 to be 4\n  at x (/a.js:1:1)")).toBe("AssertionError: expected 3 to be 4");
    expect(stackFrames("all tests passed")).toEqual([]);
  });
});

describe("source maps", () => {
  it("decodes base64 VLQ: signs, continuation digits", () => {
    expect(decodeVlq("A")).toEqual([0]);
    expect(decodeVlq("C")).toEqual([1]);
    expect(decodeVlq("D")).toEqual([-1]);
    expect(decodeVlq("gB")).toEqual([16]);
    expect(decodeVlq("AAgBC")).toEqual([0, 0, 16, 1]);
    expect(() => decodeVlq("A!")).toThrow(/not a base64 VLQ digit/);
  });

  it("finds the segment at or before a column, with deltas carried across lines", () => {
    const map = new SourceMap({ version: 3, sources: ["../src/a.ts"], names: ["price"], mappings: "AAAA;AACE,IAAIA" });
    expect(map.originalOf(1, 1)).toEqual({ source: "../src/a.ts", line: 1, column: 1 });
    expect(map.originalOf(2, 1)).toEqual({ source: "../src/a.ts", line: 2, column: 3 });
    expect(map.originalOf(2, 9)).toEqual({ source: "../src/a.ts", line: 2, column: 7, name: "price" });
    expect(map.originalOf(2, undefined)).toEqual({ source: "../src/a.ts", line: 2, column: 3 });
    expect(map.originalOf(7, 1)).toBeUndefined();
    expect(new SourceMap({ version: 3, sources: ["a.ts"], sourceRoot: "/src/", mappings: "AAAA" }).originalOf(1, 1)?.source).toBe(
      "/src/a.ts",
    );
    expect(() => new SourceMap({ version: 2, sources: [], mappings: "" })).toThrow(/version 2/);
  });

  it("reads the last sourceMappingURL: a file beside, or inline base64 and percent-encoded JSON", () => {
    expect(mapReference("x();\n//# sourceMappingURL=old.map\n//# sourceMappingURL=a.js.map\n")).toEqual({ path: "a.js.map" });
    const json = JSON.stringify({ version: 3, sources: ["a.ts"], mappings: "AAAA" });
    expect(mapReference(`//# sourceMappingURL=data:application/json;charset=utf-8;base64,${btoa(json)}`)).toEqual({
      inline: JSON.parse(json),
    });
    expect(mapReference(`//# sourceMappingURL=data:application/json,${encodeURIComponent(json)}`)).toEqual({ inline: JSON.parse(json) });
    expect(mapReference("no map here")).toBeUndefined();
    expect(besideFile("dist/a.js.map", "../src/a.ts")).toBe("src/a.ts");
    expect(besideFile("dist/a.js.map", "file:///w/src/a.ts")).toBe("/w/src/a.ts");
  });
});

describe("changed lines of a diff", () => {
  it("takes each hunk's new side; a pure deletion marks the line it left; a deleted file is dropped", () => {
    const diff = [
      "diff --git a/src/a.ts b/src/a.ts",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -3 +3 @@ x",
      "@@ -10,0 +11,4 @@",
      "@@ -20,2 +24,0 @@",
      "diff --git a/gone.ts b/gone.ts",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1,3 +0,0 @@",
    ].join("\n");
    expect(parseUnifiedZero(diff)).toEqual([
      {
        file: "src/a.ts",
        ranges: [
          { start: 3, end: 3 },
          { start: 11, end: 14 },
          { start: 24, end: 24 },
        ],
      },
    ]);
  });
});
