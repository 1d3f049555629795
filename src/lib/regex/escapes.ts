// Escapes of the bridge's regex dialect, inside and outside brackets: classes (\d \w \s \p{..}),
// code points (\n \x41 \u{1F600}) and escaped meta characters. Escaping anything else is an error,
// as in ripgrep: "\/" or "\<" would otherwise mean one thing here and fail there.
import { CharClass, caseVariants, DIGIT, SPACE, unicodeProperty, WORD, type CharClassSpec } from "./char-class.ts";
import type { RegexNode } from "./ast.ts";
import { regexError, type RegexSource } from "./regex-source.ts";

export interface Flags {
  caseInsensitive: boolean;
  /** "U": greedy and lazy swapped. */
  swapGreed: boolean;
}

/** Escapes of these stand for themselves (ripgrep's list of meta characters). */
const META = new Set(["\\", ".", "+", "*", "?", "(", ")", "|", "[", "]", "{", "}", "^", "$", "#", "&", "-", "~"]);
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, a: 0x07 };

/** \d \w \s \p{..} and their negations, inside or outside brackets; undefined for other escapes. */
export function classEscape(src: RegexSource, ch: string): CharClassSpec | undefined {
  const property = (test: RegExp, negated: boolean): CharClassSpec => ({ ranges: [], properties: [{ test, negated: false }], negated });
  if (ch === "d" || ch === "D") return property(DIGIT, ch === "D");
  if (ch === "w" || ch === "W") return property(WORD, ch === "W");
  if (ch === "s" || ch === "S") return property(SPACE, ch === "S");
  if (ch !== "p" && ch !== "P") return undefined;
  let name = src.next() ?? "";
  if (name === "{") {
    name = "";
    while (src.peek() !== undefined && src.peek() !== "}") name += src.next();
    if (src.next() !== "}") throw regexError(src, "unclosed \\p{...}", { suggestion: "Close the property name with }." });
  }
  const test = unicodeProperty(name);
  if (test === undefined)
    throw regexError(src, `unknown Unicode property "${name}"`, {
      suggestion: "Use a general category (L, Lu, N...), a script (Greek, Han...) or a binary property (Alphabetic...).",
    });
  return property(test, ch === "P");
}

/** The code point an escape stands for (\n, \x41, \u{1F600}, \. ...). */
export function escapedCodePoint(src: RegexSource, ch: string): number {
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return simple;
  if (META.has(ch)) return ch.codePointAt(0) ?? 0;
  const digits = ch === "x" ? 2 : ch === "u" ? 4 : ch === "U" ? 8 : 0;
  if (digits === 0)
    throw regexError(src, `"\\${ch}" is not an escape of this dialect`, {
      suggestion: `Write the character itself (only meta characters such as \\. \\( \\[ are escaped), or use \\x{...} for a code point.`,
    });
  let hex = "";
  if (src.peek() === "{") {
    src.next();
    while (src.peek() !== undefined && src.peek() !== "}") hex += src.next();
    if (src.next() !== "}") throw regexError(src, `unclosed \\${ch}{...}`, { suggestion: "Close the code point with }." });
  } else {
    for (let i = 0; i < digits; i++) hex += src.next() ?? "";
  }
  const cp = /^[0-9A-Fa-f]{1,8}$/.test(hex) ? Number.parseInt(hex, 16) : Number.NaN;
  if (!(cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff))
    throw regexError(src, `"\\${ch}${hex}" is not a Unicode scalar value`, {
      suggestion: "Use a code point from 0 to 10FFFF, outside the surrogates.",
    });
  return cp;
}

export function literalNode(cp: number, flags: Flags): RegexNode {
  const points = flags.caseInsensitive ? caseVariants(cp) : [cp];
  return {
    kind: "class",
    cls: new CharClass({ ranges: points.map((p) => ({ lo: p, hi: p })), properties: [], negated: false }),
    literal: flags.caseInsensitive ? undefined : String.fromCodePoint(cp),
  };
}
