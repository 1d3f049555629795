// The suite's start order (test/sequencer.ts): the longest files first, also on a fresh clone where
// vitest has recorded nothing. It rests on two lists in test/suite-order.ts; a file renamed or
// moved, or a project added, would drop out of them silently and start late again.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type FileToOrder, HEAVY_FILES, HEAVY_THRESHOLD_S, longestFirst, PROJECT_ORDER } from "../../suite-order.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

describe("the suite's start order", () => {
  it("names only test files that exist, each under a project it orders", () => {
    const missing = Object.keys(HEAVY_FILES).filter((file) => !existsSync(resolve(root, file)));
    expect(missing).toEqual([]);
    const outside = Object.keys(HEAVY_FILES).filter((file) => !PROJECT_ORDER.some((project) => file.startsWith(`test/${project}/`)));
    expect(outside).toEqual([]);
    expect(HEAVY_THRESHOLD_S).toBeGreaterThan(0);
  });

  it("orders exactly the projects vitest.config.ts defines", () => {
    const config = readFileSync(resolve(root, "vitest.config.ts"), "utf8");
    const projects = [...config.matchAll(/^\s*name: "([\w-]+)",$/gm)].map((m) => m[1]);
    expect(projects.length).toBeGreaterThan(0);
    expect([...PROJECT_ORDER].sort()).toEqual([...projects].sort());
  });
});

describe("longestFirst", () => {
  const order = (files: FileToOrder[]) => longestFirst(files, (f) => f).map((f) => f.file);

  it("on a fresh clone: projects in order, the listed heavy files first, the rest in vitest's order", () => {
    expect(
      order([
        { project: "contract", file: "test/contract/a.test.ts" },
        { project: "unit", file: "test/unit/b.test.ts" },
        { project: "e2e", file: "test/e2e/small-first.test.ts" },
        { project: "e2e", file: "test/e2e/package.test.ts" },
        { project: "integration", file: "test/integration/tools/git-operations.test.ts" },
        { project: "e2e", file: "test/e2e/small-second.test.ts" },
        { project: "e2e", file: "test/e2e/vscode-ide.test.ts" },
      ]),
    ).toEqual([
      "test/e2e/vscode-ide.test.ts",
      "test/e2e/package.test.ts",
      "test/e2e/small-first.test.ts",
      "test/e2e/small-second.test.ts",
      "test/integration/tools/git-operations.test.ts",
      "test/contract/a.test.ts",
      "test/unit/b.test.ts",
    ]);
  });

  it("a duration vitest recorded counts over the list's figure, and a recorded failure goes first", () => {
    expect(
      order([
        { project: "e2e", file: "test/e2e/vscode-ide.test.ts", recorded: { durationMs: 20_000, failed: false } },
        { project: "e2e", file: "test/e2e/new.test.ts", recorded: { durationMs: 90_000, failed: false } },
        { project: "e2e", file: "test/e2e/quick.test.ts", recorded: { durationMs: 1_000, failed: true } },
        { project: "e2e", file: "test/e2e/package.test.ts" },
      ]),
    ).toEqual(["test/e2e/quick.test.ts", "test/e2e/package.test.ts", "test/e2e/new.test.ts", "test/e2e/vscode-ide.test.ts"]);
  });

  it("a project it does not know runs last rather than not at all", () => {
    expect(
      order([
        { project: "new-project", file: "test/new/x.test.ts" },
        { project: "unit", file: "test/unit/y.test.ts" },
      ]),
    ).toEqual(["test/unit/y.test.ts", "test/new/x.test.ts"]);
  });
});
