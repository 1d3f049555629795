// The bridge's regex engine: the same matches as a backtracking engine where their dialects agree,
// linear work on patterns that make backtracking explode, and the refusals ripgrep makes (that rg
// itself agrees runs rg: test/integration/lib/regex-rg.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegex } from "../../../src/lib/regex/index.ts";
import { programSize } from "../../../src/lib/regex/compile.ts";
import { parseRegex } from "../../../src/lib/regex/parse.ts";
import { REFUSED_PATTERNS } from "../../fixtures/regex-dialect.ts";

const span = (pattern: string, line: string, opts = {}) => {
  const m = compileRegex(pattern, opts).exec(line);
  return m === undefined ? undefined : [m.start, m.end, ...m.groups.slice(1)];
};
const jsSpan = (pattern: string, line: string, flags = "u") => {
  const m = new RegExp(pattern, flags).exec(line);
  return m === null ? undefined : [m.index, m.index + m[0].length, ...m.slice(1)];
};

describe("matches", () => {
  it.each([
    ["abc", "xxabcxx"],
    ["a|ab", "ab"],
    ["ab|a", "ab"],
    ["a*", "bbb"],
    ["a*?b", "aaab"],
    ["(a+)(b*)", "xaabbb"],
    ["(a|b)*c", "ababc"],
    ["x{2,3}", "xxxxx"],
    ["x{2,3}?", "xxxxx"],
    ["x{2,}", "xxxxx"],
    ["^foo$", "foo"],
    ["^foo", "xfoo"],
    ["foo$", "foox"],
    ["\\bword\\b", "a word here"],
    ["\\Bor", "word"],
    ["[a-c]+", "zzbcaq"],
    ["[^a-c]+", "abcxyz"],
    ["[]a]+", "]a]b"],
    ["[a-]+", "a-a-b"],
    ["\\d+\\.\\d+", "v1.25 x"],
    ["(?:ab)+", "ababab"],
    ["(?P<year>\\d{4})-(\\d{2})", "on 2024-05-01"],
    ["a.c", "abc a\u00e9c"],
    ["\\x41\\x{42}\\u0043", "ABC"],
    ["(a*)*b", "aaab"],
    ["(a|)+b", "aab"],
    ["[[:alpha:]]+", "12ab34"],
    ["\\w+", "  héllo wörld"],
    ["\\s+", "a \t b"],
    ["😀+", "x😀😀y"],
    ["[😀-😂]", "a😁"],
    ["", "abc"],
    ["a|", "b"],
  ])("%s on %j as a backtracking engine finds it", (pattern, line) => {
    const js = pattern
      .replace(/\(\?P</g, "(?<")
      .replace("[[:alpha:]]", "[A-Za-z]")
      .replace("\\w", "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]")
      .replace("\\x{42}", "\\u{42}")
      .replace("[]a]", "[\\]a]");
    expect(span(pattern, line)).toEqual(jsSpan(js, line));
  });

  it("agrees with a backtracking engine on random patterns and lines", () => {
    const atom = fc.constantFrom("a", "b", "c", ".", "[ab]", "[^a]", "\\d", "x");
    const piece = fc.tuple(atom, fc.constantFrom("", "*", "+", "?", "{1,2}", "*?", "+?", "??")).map(([a, q]) => a + q);
    const branch = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
    const pattern = fc.array(branch, { minLength: 1, maxLength: 3 }).map((bs) => (bs.length > 1 ? `(${bs.join("|")})` : (bs[0] as string)));
    const line = fc.array(fc.constantFrom("a", "b", "c", "1", "x"), { maxLength: 12 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(pattern, line, (p, l) => {
        expect(span(p, l)).toEqual(jsSpan(p, l));
      }),
      { numRuns: 2000 },
    );
  });

  it("is case-insensitive with (?i) and with the option, Kelvin sign included", () => {
    expect(compileRegex("HELLO", { caseInsensitive: true }).test("say hello")).toBe(true);
    expect(compileRegex("(?i)k").test("\u212A")).toBe(true);
    expect(compileRegex("a(?i)b").test("aB")).toBe(true);
    expect(compileRegex("a(?i)b").test("AB")).toBe(false);
    expect(compileRegex("(?i:a)b").test("Ab")).toBe(true);
    expect(compileRegex("(?i:a)b").test("AB")).toBe(false);
    expect(compileRegex("[a-c]", { caseInsensitive: true }).test("B")).toBe(true);
  });

  it("takes literal text as it is", () => {
    expect(compileRegex("a.b(", { literal: true }).test("xa.b(")).toBe(true);
    expect(compileRegex("a.b(", { literal: true }).test("axb(")).toBe(false);
  });

  it("finds every match from a position on", () => {
    const re = compileRegex("o");
    const at: number[] = [];
    for (let m = re.exec("foo boo"); m !== undefined; m = re.exec("foo boo", m.end)) at.push(m.start);
    expect(at).toEqual([1, 2, 5, 6]);
  });
});

describe("hostile patterns", () => {
  it.each(["(a+)+$", "^(a|a)*$", "^(a*)*$", "(.*a){12}$", "(\\w+\\s?)+$", "^(([a-z])+.)+[A-Z]([a-z])+$"])(
    "%s on a long line: linear work, right answer",
    (pattern) => {
      const line = `${"a".repeat(20_000)}!`;
      const stats = { steps: 0 };
      const re = compileRegex(pattern, { stats });
      expect(re.test(line)).toBe(false);
      const size = programSize(parseRegex(pattern, { caseInsensitive: false, swapGreed: false }).root);
      // Every step visits each instruction at most twice (stepping and adding), at every position.
      expect(stats.steps).toBeLessThanOrEqual(2 * size * (line.length + 1));
      // A backtracking engine on the same input would take exponential time; ours takes no more
      // than this bound on a line a thousand times longer than where backtracking already hangs.
      expect(re.exec(line)).toBeUndefined();
    },
  );

  it("refuses a program too big to run in bounded time", () => {
    expect(() => compileRegex("(a{1000}){1000}")).toThrow(/too complex/);
    expect(() => compileRegex("((((a{100}){100}){100}){100})")).toThrow(/too complex/);
  });
});

describe("the dialect", () => {
  const refused = REFUSED_PATTERNS;
  it.each(refused)("refuses %s, as rg does", (pattern) => {
    expect(() => compileRegex(pattern)).toThrow(/Invalid regex at column \d+/);
  });
});
