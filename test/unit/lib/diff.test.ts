// The diff behind every edit tool: minimal where it can be, bounded where it cannot, and a unified
// diff that patch(1) semantics turn back into the new text. That GNU diff writes the same unified
// diff is checked in test/integration/lib/gnu-diff.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines } from "../../../src/lib/diff/line-diff.ts";
import { unifiedDiff } from "../../../src/lib/diff/unified-diff.ts";

/** Applies a unified diff of ours to `old`, as patch(1) would (exact positions, context checked). */
function applyPatch(old: string, diff: string): string {
  const tokens = old.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let at = 0;
  const lines = diff.split("\n").slice(2);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(line);
    if (hunk) {
      const start = Number(hunk[1]) - (hunk[2] === "0" ? 0 : 1);
      while (at < start) out.push(tokens[at++] as string);
      continue;
    }
    const open = lines[i + 1] === "\\ No newline at end of file";
    if (open) i++;
    const token = open ? line.slice(1) : `${line.slice(1)}\n`;
    if (line.startsWith(" ") || line.startsWith("-")) expect(tokens[at++]).toBe(token);
    if (line.startsWith(" ") || line.startsWith("+")) out.push(token);
  }
  while (at < tokens.length) out.push(tokens[at++] as string);
  return out.join("");
}

const lines = (n: number, f: (i: number) => string = (i) => `line ${i + 1}`) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join("");

describe("unifiedDiff", () => {
  it("counts what changed, says nothing for no change, and drops \\r from the display", () => {
    expect(unifiedDiff("a\r\nb\r\n", "a\r\nc\r\n", { oldPath: "a/f", newPath: "b/f" })).toEqual({
      text: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c",
      added: 1,
      removed: 1,
    });
    expect(unifiedDiff("same\n", "same\n", { oldPath: "a", newPath: "b" })).toEqual({ text: "", added: 0, removed: 0 });
  });

  it("is cut at maxLines with a line saying so", () => {
    const diff = unifiedDiff(
      lines(100),
      lines(100, (i) => `changed ${i}`),
      { oldPath: "a", newPath: "b", maxLines: 10 },
    );
    expect(diff.text.split("\n")).toHaveLength(13);
    expect(diff.text).toMatch(/\[diff cut: 191 more lines \(\+100 -100 in all\)/);
  });

  it("turns back into the new text, for any edits", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "d", ""), { maxLength: 30 }).map((ls) => ls.join("\n"));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = unifiedDiff(before, after, { oldPath: "a", newPath: "b", maxLines: 10_000 });
        expect(diff.text === "" ? before : applyPatch(before, diff.text)).toBe(after);
      }),
      { numRuns: 500 },
    );
  });
});

describe("diffLines", () => {
  it("is minimal on small inputs", () => {
    const ops = diffLines(["a", "b", "c", "a", "b", "b", "a"], ["c", "b", "a", "b", "a", "c"]);
    expect(ops.filter((o) => o.kind !== "equal").reduce((n, o) => n + o.count, 0)).toBe(5);
  });

  it("stays bounded on inputs with nothing in common: a coarse but correct script", () => {
    const a = Array.from({ length: 50_000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 50_000 }, (_, i) => `new ${i}`);
    expect(diffLines(a, b)).toEqual([
      { kind: "delete", oldStart: 0, newStart: 0, count: 50_000 },
      { kind: "insert", oldStart: 50_000, newStart: 0, count: 50_000 },
    ]);
  });
});
