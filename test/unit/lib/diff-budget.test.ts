// The diff budget of the history tools: per section, the header kept, the patch cut to the budget,
// the rest counted in a note that names the section; notes and separators are not patch lines.
import { describe, expect, it } from "vitest";
import { cutPatches } from "../../../src/lib/text/diff-budget.ts";

const LOG = [
  "commit aaaaaaaaaa 2024-01-02 Ann",
  "second",
  "",
  "diff --git a/f.ts b/f.ts",
  "--- a/f.ts",
  "+++ b/f.ts",
  "@@ -1,4 +1,4 @@",
  " function f() {",
  "-  return 1;",
  "+  return 2;",
  " }",
  "",
  "commit bbbbbbbbbb 2024-01-01 Bob",
  "first",
  "",
  "diff --git a/f.ts b/f.ts",
  "@@ -0,0 +1,3 @@",
  "+function f() {",
  "",
].join("\n");

const budget = (maxLines: number) => ({
  maxLines,
  sectionStart: /^commit /,
  more: (header: string, left: number) => `[${left} more in ${header.split(" ")[1]}]`,
});

describe("cutPatches", () => {
  it("keeps each section's header and first patch lines, and counts the rest per section", () => {
    const { text, left } = cutPatches(LOG, budget(2));
    expect(left).toBe(3);
    expect(text).toBe(
      [
        "commit aaaaaaaaaa 2024-01-02 Ann",
        "second",
        "",
        "diff --git a/f.ts b/f.ts",
        "--- a/f.ts",
        "+++ b/f.ts",
        "@@ -1,4 +1,4 @@",
        " function f() {",
        "[3 more in aaaaaaaaaa]",
        "",
        "commit bbbbbbbbbb 2024-01-01 Bob",
        "first",
        "",
        "diff --git a/f.ts b/f.ts",
        "@@ -0,0 +1,3 @@",
        "+function f() {",
        "",
      ].join("\n"),
    );
  });

  it("leaves text within the budget as it was, and keeps the bridge's own notes", () => {
    expect(cutPatches(LOG, budget(5))).toEqual({ text: LOG, left: 0 });
    const noted = `${LOG}\n[output cut at 9 characters; lower limit]\n`;
    expect(cutPatches(noted, budget(1)).text).toMatch(/\[1 more in bbbbbbbbbb\]\n\n\[output cut at 9 characters; lower limit\]\n$/);
  });
});
