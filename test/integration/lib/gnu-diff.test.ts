// The unified diff of the edit tools against GNU diff -u on the same edits (split from
// test/unit/lib/diff.test.ts, since it runs diff).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../../src/lib/diff/unified-diff.ts";

const lines = (n: number, f: (i: number) => string = (i) => `line ${i + 1}`) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join("");

describe("unifiedDiff", () => {
  it("writes what GNU diff -u writes for a few edits", () => {
    const dir = mkdtempSync(join(tmpdir(), "cib-diff-"));
    try {
      const cases: [string, string][] = [
        [lines(20), lines(20).replace("line 10\n", "line ten\n")],
        [lines(30), lines(30).replace("line 2\n", "").replace("line 25\n", "line 25\ninserted\n")],
        [lines(5), `${lines(5)}tail`],
        ["a\nb", "a\nb\n"],
        ["", "new\n"],
        [lines(3), ""],
        [lines(50), lines(50).replace("line 10\n", "x\n").replace("line 17\n", "y\n")],
      ];
      for (const [before, after] of cases) {
        writeFileSync(join(dir, "old"), before);
        writeFileSync(join(dir, "new"), after);
        let gnu = "";
        try {
          execFileSync("diff", ["-u", join(dir, "old"), join(dir, "new")], { encoding: "utf8" });
        } catch (err) {
          gnu = (err as { stdout: string }).stdout;
        }
        const ours = unifiedDiff(before, after, { oldPath: "a/f", newPath: "b/f" }).text;
        expect(ours.split("\n").slice(2)).toEqual(gnu.trimEnd().split("\n").slice(2));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
