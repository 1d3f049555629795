// src/glob against a reference on random patterns and paths: the regex translation findFiles
// used before (correct, only exponential on hostile input), and the same automaton with no DFA
// cache at all (plain NFA simulation, the fallback when the cache is full).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, type GlobMatcher } from "../../../src/lib/glob/index.ts";
import { LazyDfa } from "../../../src/lib/glob/lazy-dfa.ts";
import { buildNfa } from "../../../src/lib/glob/nfa.ts";
import { NfaStepper } from "../../../src/lib/glob/nfa-stepper.ts";
import { NFA_BOUNDS } from "../../../src/lib/glob/matcher.ts";
import { parseGlob } from "../../../src/lib/glob/parse.ts";

// ---- Reference: src/tools/workspace/glob.ts as it was, copied. Two changes, both marked: the
// "u" flag (src/glob reads code points) and the "s" flag ("**" crosses a newline in a name).
function referenceGlob(pattern: string): GlobMatcher {
  const trimmed = pattern.replace(/^\.\//, "").replace(/^\/+/, "");
  const basenameOnly = !trimmed.includes("/");
  const regex = new RegExp(`^${translate(trimmed)}$`, "su"); // changed: "su"
  return {
    basenameOnly,
    matches(relativePath: string): boolean {
      const subject = basenameOnly ? relativePath.slice(relativePath.lastIndexOf("/") + 1) : relativePath;
      return regex.test(subject);
    },
  };
}

function translate(glob: string): string {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob.charAt(++i));
    } else if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        i++;
        if (atSegmentStart && glob[i + 1] === "/") {
          out += "(?:[^/]*/)*";
          i++;
        } else {
          out += ".*";
        }
      } else {
        out += "[^/]*";
      }
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^/" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = close;
    } else if (ch === "{") {
      braceDepth++;
      out += "(?:";
    } else if (ch === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (ch === "," && braceDepth > 0) {
      out += "|";
    } else {
      out += escapeRegex(ch);
    }
  }
  return out;
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
// ---- End of the reference.

/** src/glob with its DFA cache disabled: every code point is a plain NFA step. */
function nfaOnlyGlob(pattern: string): GlobMatcher {
  const { nodes, basenameOnly } = parseGlob(pattern);
  const nfa = buildNfa(nodes, NFA_BOUNDS);
  if (nfa === undefined) throw new Error(`too complex: ${pattern}`);
  const dfa = new LazyDfa(new NfaStepper(nfa), { budget: 0 });
  return { basenameOnly, matches: (path) => dfa.matches(basenameOnly ? path.slice(path.lastIndexOf("/") + 1) : path) };
}

// A pattern as tokens, each with the strings it can stand for, so a path can be drawn that the
// pattern matches (random paths alone rarely do). Only syntax both sides read the same way: no
// class edge cases where the old translation was wrong, and no "**/" right after "{" or ","
// (src/lib/glob/parse.ts says why they differ there).
type Token = { glob: string; samples: string[] } | { branches: Token[][] };

const CHARS = ["a", "b", ".", "é", "😀", ",", "-"];
const leaf = (glob: string, samples: string[]): Token => ({ glob, samples });
const leaves: Token[] = [
  ...CHARS.map((ch) => leaf(ch === "," ? "\\," : ch, [ch])),
  leaf("/", ["/"]),
  leaf("*", ["", "a", "ab.", "😀b"]),
  leaf("**", ["", "a/b", "/", "a.b/é/"]),
  leaf("**/", ["", "a/", "a/b/", ".b/😀/"]),
  leaf("?", ["a", "😀", "."]),
  leaf("[ab]", ["a", "b"]),
  leaf("[!a]", ["b", "😀", "/"]),
  leaf("[a-c]", ["b", "c"]),
  leaf("[]a]", ["]", "a"]),
  leaf("[-é]", ["-", "é"]),
  leaf("[^b.]", ["a", "."]),
  leaf("[/a]", ["/", "a"]),
  leaf("\\*", ["*"]),
  leaf("\\{", ["{"]),
];

const token: fc.Arbitrary<Token> = fc.letrec<{ token: Token; sequence: Token[] }>((tie) => ({
  token: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...leaves),
    fc.array(tie("sequence"), { minLength: 1, maxLength: 3 }).map((branches) => ({ branches })),
  ),
  sequence: fc.array(tie("token"), { maxLength: 4 }),
})).token;

function render(tokens: Token[]): string {
  return tokens.map((t) => ("glob" in t ? t.glob : `{${t.branches.map(render).join(",")}}`)).join("");
}

/** A string the tokens can stand for, with `pick` choosing among the options. */
function sample(tokens: Token[], pick: (n: number) => number): string {
  return tokens
    .map((t) => ("glob" in t ? (t.samples[pick(t.samples.length)] ?? "") : sample(t.branches[pick(t.branches.length)] ?? [], pick)))
    .join("");
}

const noisePath = fc.array(fc.constantFrom("a", "b", "/", ".", "😀", "]", "-", ",", "*"), { maxLength: 12 }).map((chars) => chars.join(""));

const cases = fc
  .record({
    tokens: fc.array(token, { minLength: 1, maxLength: 6 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
    prefix: fc.constantFrom("", "", "x/", "a/b/"),
    noise: noisePath,
  })
  .map(({ tokens, picks, prefix, noise }) => {
    let next = 0;
    const pick = (n: number) => (picks[next++ % picks.length] as number) % n;
    return { pattern: render(tokens), paths: [prefix + sample(tokens, pick), sample(tokens, pick), noise] };
  })
  .filter(({ pattern }) => comparable(pattern));

/** Not empty once the leading "./" and "/" are dropped, and read the same way by both sides. */
function comparable(pattern: string): boolean {
  return pattern.replace(/^\.\//, "").replace(/^\/+/, "") !== "" && !/[{,]\*\*\//.test(pattern);
}

describe("compileGlob agrees with the old regex translation", () => {
  it("on random patterns and paths, with and without the DFA cache", () => {
    let matched = 0;
    let checked = 0;
    fc.assert(
      fc.property(cases, ({ pattern, paths }) => {
        const [reference, glob, nfaOnly] = [referenceGlob(pattern), compileGlob(pattern), nfaOnlyGlob(pattern)];
        expect(glob.basenameOnly).toBe(reference.basenameOnly);
        for (const path of paths) {
          const expected = reference.matches(path);
          expect(glob.matches(path), `${pattern} on ${JSON.stringify(path)}`).toBe(expected);
          expect(nfaOnly.matches(path), `${pattern} on ${JSON.stringify(path)} without the cache`).toBe(expected);
          checked++;
          if (expected) matched++;
        }
      }),
      { numRuns: 1500 },
    );
    // The drawn paths must exercise matches, not only misses.
    expect(matched / checked).toBeGreaterThan(0.2);
  }, 60_000);

  it("when one matcher is reused over many paths, so the cached DFA states are reused too", () => {
    fc.assert(
      fc.property(
        fc.array(token, { minLength: 1, maxLength: 6 }),
        fc.array(noisePath, { minLength: 50, maxLength: 50 }),
        (tokens, paths) => {
          const pattern = render(tokens);
          fc.pre(comparable(pattern));
          const [reference, glob] = [referenceGlob(pattern), compileGlob(pattern)];
          for (const path of paths) expect(glob.matches(path), `${pattern} on ${JSON.stringify(path)}`).toBe(reference.matches(path));
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});
