// Patterns that make a backtracking regex take exponential (or high polynomial) time must cost
// src/glob about what a plain pattern costs. Times are compared in the same run, never to a
// fixed number of milliseconds, so a slow or busy machine does not fail the test.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../../src/errors.ts";
import { compileGlob } from "../../../src/lib/glob/index.ts";
import { LazyDfa } from "../../../src/lib/glob/lazy-dfa.ts";
import { buildNfa } from "../../../src/lib/glob/nfa.ts";
import { NfaStepper } from "../../../src/lib/glob/nfa-stepper.ts";
import { NFA_BOUNDS } from "../../../src/lib/glob/matcher.ts";
import { parseGlob } from "../../../src/lib/glob/parse.ts";

/** 2,000 paths like a real tree's, some with long names, from a fixed seed. */
function realisticPaths(count: number): string[] {
  const dirs = ["src", "lib", "test", "components", "node_modules", "utils", "a", "packages", "core", "__tests__"];
  const names = ["index", "app", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "README", "main.test", "string-utils", "ZZZZ", "x"];
  const exts = [".ts", ".tsx", ".js", ".md", ".json", ""];
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const depth = 1 + next(7);
    const parts = Array.from({ length: depth }, () => dirs[next(dirs.length)] as string);
    return `${parts.join("/")}/${names[next(names.length)] ?? ""}${exts[next(exts.length)] ?? ""}`;
  });
}

const paths = realisticPaths(2000);
const BENIGN = "src/**/*.{ts,tsx}";
const HOSTILE: Record<string, string> = {
  "the attack run's {*,*} x 12": `${"{*,*}".repeat(12)}Z`,
  "{*,**} x 12, in path mode": `a/${"{*,**}".repeat(12)}Z`,
  "many * between single characters": `${"*a".repeat(30)}*b`,
  "many ** between single characters": `x/${"**a".repeat(30)}**b`,
  "**/ x 20": `${"**/".repeat(20)}Z`,
  "?* x 40": `${"?*".repeat(40)}Z`,
  "deeply nested braces": `${"{*,".repeat(60)}Z${"}".repeat(60)}${"{*,{**,*a}}".repeat(10)}Z`,
};

/** The fastest of several timings of compiling `pattern` and matching every path with it. */
function batchTime(pattern: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    const glob = compileGlob(pattern);
    for (const path of paths) glob.matches(path);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe("hostile globs", () => {
  it.each(Object.entries(HOSTILE))("%s costs no more than 20x a plain pattern over the same paths", (_name, pattern) => {
    batchTime(BENIGN); // warm the JIT for both before timing
    batchTime(pattern);
    const ratio = batchTime(pattern) / batchTime(BENIGN);
    expect(ratio).toBeLessThan(20);
  });

  it("still give the right answers", () => {
    const attack = compileGlob(HOSTILE["the attack run's {*,*} x 12"] as string);
    expect(attack.matches("src/xZ")).toBe(true);
    expect(attack.matches(`src/${"a".repeat(5000)}`)).toBe(false);
    expect(compileGlob(HOSTILE["many * between single characters"] as string).matches(`${"a".repeat(40)}b`)).toBe(true);
    expect(compileGlob(HOSTILE["**/ x 20"] as string).matches("a/b/c/Z")).toBe(true);
  });

  it.each([
    ["too many states", "*?".repeat(5000)],
    [
      "too many character ranges in one class",
      `[${Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(0x4e00 + 2 * i)).join("")}]`,
    ],
  ])("%s is an error, not a hang", (_name, pattern) => {
    let err: unknown;
    try {
      compileGlob(pattern);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).message).toMatch(/too complex: matching it would need more than 2000 states or 4000 character ranges/);
    expect((err as ToolError).suggestion).toMatch(/simpler patterns/);
  });

  it("anything findFiles accepts (1000 characters) stays under the size bound", () => {
    for (const shape of ["*?", "?", "*/", "**/", "***", "{*,*}", "[!a]*", "[!ac]", "a*", "{,*}", "**a"]) {
      expect(() => compileGlob(shape.repeat(Math.floor(1000 / shape.length)))).not.toThrow();
    }
  });
});

describe("the DFA cache", () => {
  // "a" then ten characters: the classic pattern whose DFA has 2^11 states.
  const pattern = "*a??????????";
  const reference = /^[^/]*a[^/]{10}$/;
  const subjects = Array.from({ length: 3000 }, (_, i) =>
    (i * 2654435761).toString(2).replaceAll("0", "b").replaceAll("1", "a").slice(0, 30),
  );

  function cached(budget: number): LazyDfa {
    const nfa = buildNfa(parseGlob(pattern).nodes, NFA_BOUNDS);
    if (nfa === undefined) throw new Error("unexpected bound");
    return new LazyDfa(new NfaStepper(nfa), { budget });
  }

  it("stays within its budget and falls back to the NFA with the same answers", () => {
    const small = cached(2000);
    const large = cached(1 << 19);
    const expected = subjects.map((subject) => reference.test(subject));
    expect(subjects.map((subject) => small.matches(subject))).toEqual(expected);
    expect(subjects.map((subject) => large.matches(subject))).toEqual(expected);
    // Each cached state costs its set plus one row of the alphabet (at least 4 cells here).
    expect(small.size).toBeLessThan(2 + 2000 / 4);
    expect(large.size).toBeGreaterThan(small.size);
  });
});
