// The search dialect against rg 13 itself: rg refuses every pattern the bridge refuses, and accepts
// the ones the bridge accepts (split from test/unit/lib/regex.test.ts, since it runs rg).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { compileRegex } from "../../../src/lib/regex/index.ts";
import { REFUSED_PATTERNS } from "../../fixtures/regex-dialect.ts";

describe("the dialect", () => {
  const refused = REFUSED_PATTERNS;

  it("refuses nothing here that rg 13 accepts and refuses all it refuses", () => {
    const rgRefuses = (pattern: string) => {
      try {
        execFileSync("rg", ["--no-config", "-e", pattern, "--", "-"], { input: "x\n", stdio: ["pipe", "ignore", "ignore"] });
        return false;
      } catch (err) {
        return (err as { status: number }).status === 2;
      }
    };
    for (const pattern of refused.filter((p) => p !== "(?x) a")) expect(rgRefuses(pattern), pattern).toBe(true);
    for (const pattern of [
      "\\-",
      "\\#",
      "\\&",
      "\\~",
      "a{2}",
      "\\x41",
      "(?P<n>x)",
      "[[:alpha:]]",
      "\\pL",
      "\\p{Greek}",
      "x**",
      "(?i)A",
      "\\B",
      "^*",
      "[]a]",
      "[^]a]",
      "[a-]",
      "a|",
      "()",
      "\\z",
      "a}",
      "]",
      "(?-i)a",
      "\\P{L}",
      "\\p{sc=Greek}",
      "a{2}?",
    ]) {
      expect(rgRefuses(pattern), pattern).toBe(false);
      expect(() => compileRegex(pattern), pattern).not.toThrow();
    }
  });
});
