// getSymbolHistory's commits keep what changed: git log -L prints the whole function at every
// commit, so the changed lines keep two lines of context each, the unchanged runs between are
// counted, and the file header lines go where they only repeat the file asked about.
import { describe, expect, it } from "vitest";
import { changedLinesOnly } from "../../../src/tools/git/line-log.ts";

const body = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `   line${from + i};`);

describe("changedLinesOnly", () => {
  it("keeps each change with two lines around it, counts the rest, and drops the repeated file headers", () => {
    const log = [
      "commit 1111111111 2026-01-02 Ann",
      "return two",
      "",
      "diff --git a/src/app.ts b/src/app.ts",
      "--- a/src/app.ts",
      "+++ b/src/app.ts",
      "@@ -1,20 +1,20 @@",
      " function start() {",
      ...body(2, 9),
      "-  return 1;",
      "+  return 2;",
      ...body(11, 19),
      " }",
      "commit 2222222222 2026-01-01 Bob",
      "add start",
      "",
      "diff --git a/src/app.ts b/src/app.ts",
      "--- /dev/null",
      "+++ b/src/app.ts",
      "@@ -0,0 +1,3 @@",
      "+function start() {",
      "+  return 1;",
      "+}",
    ].join("\n");
    expect(changedLinesOnly(log, { path: "src/app.ts" }).split("\n")).toEqual([
      "commit 1111111111 2026-01-02 Ann",
      "return two",
      "",
      "@@ -1,20 +1,20 @@",
      " … 7 unchanged lines",
      "   line8;",
      "   line9;",
      "-  return 1;",
      "+  return 2;",
      "   line11;",
      "   line12;",
      " … 8 unchanged lines",
      "commit 2222222222 2026-01-01 Bob",
      "add start",
      "",
      "@@ -0,0 +1,3 @@",
      "+function start() {",
      "+  return 1;",
      "+}",
    ]);
  });

  it("keeps the headers of a commit where git followed the function to another file, and lines without a final newline", () => {
    const log = [
      "commit 3333333333 2026-01-03 Ann",
      "move",
      "",
      "diff --git a/old.ts b/src/app.ts",
      "--- a/old.ts",
      "+++ b/src/app.ts",
      "@@ -1,2 +1,2 @@",
      " function start() {",
      "-  return 0;}",
      "\\ No newline at end of file",
      "+  return 1;}",
    ].join("\n");
    expect(changedLinesOnly(log, { path: "src/app.ts" })).toBe(log);
  });
});
