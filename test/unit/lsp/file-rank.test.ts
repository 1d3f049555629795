import { describe, expect, it } from "vitest";
import { fileRank } from "../../../src/lsp/file-rank.ts";

describe("fileRank: the order a workspace check looks at files in", () => {
  it("puts the project's own code first, then tests, then benchmarks, examples and generated files, then config", () => {
    const files = [
      "tsconfig.json",
      "benchmarks/bench0.ts",
      "examples/hello/app.ts",
      "src/gen/api.generated.ts",
      "runtime-tests/deno/index.test.ts",
      "test/app.test.ts",
      "src/routes/route1.spec.ts",
      "tests/test_core.py",
      "cmd/main_test.go",
      "src/index.ts",
      "lib/core.py",
      ".github/workflows/ci.yml",
    ];
    const byRank = [...files].sort((a, b) => fileRank(a) - fileRank(b));
    expect(byRank).toEqual([
      "src/index.ts",
      "lib/core.py",
      "test/app.test.ts",
      "src/routes/route1.spec.ts",
      "tests/test_core.py",
      "cmd/main_test.go",
      "benchmarks/bench0.ts",
      "examples/hello/app.ts",
      "src/gen/api.generated.ts",
      "runtime-tests/deno/index.test.ts",
      "tsconfig.json",
      ".github/workflows/ci.yml",
    ]);
  });

  it("reads directory names whole: a file named like one is the project's code", () => {
    expect(fileRank("src/examples.ts")).toBe(0);
    expect(fileRank("src/testing-utils/latest.ts")).toBe(0);
    expect(fileRank("pkg/testing/helpers.go")).toBe(1);
    expect(fileRank("src/contest.ts")).toBe(0);
  });

  it("puts a dependency's files (reported when a project checks library files) after the project's tests", () => {
    expect(fileRank("node_modules/@types/jsdom/base.d.ts")).toBe(2);
    expect(fileRank("packages/web/node_modules/x/index.d.ts")).toBe(2);
    expect(fileRank(".venv/lib/python3.11/site-packages/click/core.py")).toBe(2);
    expect(fileRank("src/test/node-modules.ts")).toBe(1);
  });
});
