// The pure halves of generateTests and detectUnusedCode: a scaffold per framework in the style found,
// what makes a file a program's start or a test, names runtimes call by convention, files a dynamic
// import may load, and doc comments read from the source.
import { describe, expect, it } from "vitest";
import { collectDynamicLoads, emptyLoads, loadedDynamically } from "../../../../src/services/analysis/dynamic-imports.ts";
import { conventionallyCalled, startsAProgram } from "../../../../src/services/analysis/entry-points.ts";
import { sourceDocs } from "../../../../src/services/analysis/symbol-docs.ts";
import type { TestStyle } from "../../../../src/services/analysis/test-framework.ts";
import { isTestFile } from "../../../../src/services/conventions/test-files.ts";
import { scaffold, type Subject } from "../../../../src/services/analysis/test-scaffold.ts";

const SUBJECTS: Subject[] = [
  { name: "price", kind: "function", signature: "function price(item: string): number" },
  { name: "CURRENCY", kind: "value", signature: 'const CURRENCY: "EUR"' },
];
const style = (over: Partial<TestStyle>): TestStyle => ({
  framework: "vitest",
  because: "",
  testFile: "test/pricing.test.ts",
  importExtension: ".js",
  quote: '"',
  semicolons: true,
  importsGlobals: true,
  ...over,
});

describe("test scaffolds", () => {
  it("vitest: imports from vitest and the source with the project's extension, a passing and a pending test per export", () => {
    expect(scaffold(style({}), SUBJECTS, { source: "src/pricing.ts" })).toBe(
      [
        'import { describe, expect, it } from "vitest";',
        'import { price, CURRENCY } from "../src/pricing.js";',
        "",
        'describe("price", () => {',
        '  it("is exported as a function", () => {',
        '    expect(typeof price).toBe("function");',
        "  });",
        '  it.todo("TODO: function price(item: string): number");',
        "});",
        "",
        'describe("CURRENCY", () => {',
        '  it("is exported", () => {',
        "    expect(CURRENCY).toBeDefined();",
        "  });",
        '  it.todo("TODO: const CURRENCY: \\"EUR\\"");',
        "});",
        "",
      ].join("\n"),
    );
  });

  it("jest with globals, mocha and node:test with node:assert, single quotes and no semicolons when the project writes so", () => {
    const jest = scaffold(
      style({
        framework: "jest",
        importsGlobals: false,
        quote: "'",
        semicolons: false,
        importExtension: "",
        testFile: "src/__tests__/pricing.test.ts",
      }),
      SUBJECTS,
      { source: "src/pricing.ts" },
    );
    expect(jest.split("\n")[0]).toBe("import { price, CURRENCY } from '../pricing'");
    expect(jest).not.toContain("from 'vitest'");
    const mocha = scaffold(style({ framework: "mocha", testFile: "test/pricing.spec.js" }), SUBJECTS, { source: "lib/pricing.js" });
    expect(mocha).toContain('import assert from "node:assert/strict";');
    expect(mocha).toContain('it("TODO: function price(item: string): number");');
    const nodeTest = scaffold(style({ framework: "node:test", testFile: "src/pricing.test.ts" }), SUBJECTS, { source: "src/pricing.ts" });
    expect(nodeTest).toContain('import { describe, it } from "node:test";');
    expect(nodeTest).toContain('import { price, CURRENCY } from "./pricing.js";');
    expect(nodeTest).toContain('assert.equal(typeof price, "function");');
  });

  it("pytest imports the module and skips the pending test; go test names each export in the same package", () => {
    const py = scaffold(
      style({ framework: "pytest" }),
      [{ name: "chorus", kind: "function", signature: "def chorus(count: int) -> str" }],
      {
        source: "zoo/zoo/animals.py",
        pythonModule: "zoo.animals",
      },
    );
    expect(py).toContain("from zoo.animals import chorus\n");
    expect(py).toContain("def test_chorus_is_exported():\n    assert callable(chorus)\n");
    expect(py).toContain('@pytest.mark.skip(reason="TODO: def chorus(count: int) -> str")\ndef test_chorus():\n    ...\n');
    const go = scaffold(style({ framework: "go test" }), [{ name: "Square", kind: "type", signature: "type Square struct" }], {
      source: "geo/shapes.go",
      goPackage: "shapes",
    });
    expect(go).toBe(
      'package shapes\n\nimport "testing"\n\nfunc TestSquare(t *testing.T) {\n\tvar _ Square\n\tt.Skip("TODO: type Square struct")\n}\n',
    );
  });
});

describe("entry points, tests and dynamic loads", () => {
  it("knows a program's start by its text, and the names runtimes call", () => {
    expect(startsAProgram("cmd/main.go", "package main\n\nfunc main() {}\n")).toBe("Go package main");
    expect(startsAProgram("lib/util.go", "package util\n\nfunc main() {}\n")).toBeUndefined();
    expect(startsAProgram("tool.py", 'def run(): ...\n\nif __name__ == "__main__":\n    run()\n')).toBe('if __name__ == "__main__"');
    expect(startsAProgram("pkg/__main__.py", "")).toBe("__main__.py");
    expect(startsAProgram("src/main.c", "int main(void) { return 0; }\n")).toBe("C main()");
    expect(startsAProgram("bin/cli.js", "#!/usr/bin/env node\nrun();\n")).toBe("executable script (#!)");
    expect(startsAProgram("src/a.ts", "export const a = 1;\n")).toBeUndefined();
    expect(["main", "init", "TestArea", "BenchmarkX", "helper"].map((n) => conventionallyCalled(n, "go"))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(["test_area", "__init__", "setUp", "helper"].map((n) => conventionallyCalled(n, "python"))).toEqual([true, true, true, false]);
    expect(conventionallyCalled("default", "typescript")).toBe(true);
  });

  it("tells tests by the names their runners collect", () => {
    const tests = [
      "src/a.test.ts",
      "src/a.spec.tsx",
      "tests/test_a.py",
      "pkg/a_test.py",
      "conftest.py",
      "geo/a_test.go",
      "src/__tests__/a.ts",
      "test/helpers/x.js",
    ];
    expect(tests.filter(isTestFile)).toEqual(tests);
    expect(["src/a.ts", "src/testing.ts", "latest.py", "geo/a.go", "contest.py"].filter(isTestFile)).toEqual([]);
  });

  it("a literal dynamic import names its file; a computed one makes its folder assumed loaded", () => {
    const loads = emptyLoads();
    collectDynamicLoads(loads, { file: "src/app.ts", text: 'const m = await import("./lazy/page.js");\nconst r = require("./cjs");' });
    collectDynamicLoads(loads, { file: "src/plugins/loader.ts", text: "export const load = (n: string) => import(`./${n}.js`);" });
    collectDynamicLoads(loads, { file: "zoo/run.py", text: 'importlib.import_module("zoo.extra")\n' });
    collectDynamicLoads(loads, { file: "src/static.ts", text: 'import { a } from "./a.js";\nexport type T = typeof import("./b.js");' });
    expect(loadedDynamically(loads, "src/lazy/page.ts")).toBe("loaded by a dynamic import");
    expect(loadedDynamically(loads, "src/cjs.js")).toBe("loaded by a dynamic import");
    expect(loadedDynamically(loads, "src/plugins/fancy.ts")).toBe("its folder has a dynamic import of a computed name");
    expect(loadedDynamically(loads, "zoo/extra.py")).toBe("loaded by a dynamic import");
    expect(loadedDynamically(loads, "src/a.ts")).toBeUndefined();
    expect(loadedDynamically(loads, "src/other.ts")).toBeUndefined();
  });

  it("reads doc comments above a declaration and a docstring below a def", () => {
    expect(sourceDocs(["/**", " * Sums the areas.", " * @param shapes all of them", " */", "export function total() {"], 4)).toBe(
      "Sums the areas.\n@param shapes all of them",
    );
    expect(sourceDocs(["// Area is the square's area.", "func Area(s Square) float64 {"], 1)).toBe("Area is the square's area.");
    expect(sourceDocs(["def chorus(count):", '    """Barks count times."""', "    return"], 0)).toBe("Barks count times.");
    expect(sourceDocs(["#include <stdio.h>", "int add(int a, int b);"], 1)).toBe("");
  });
});
