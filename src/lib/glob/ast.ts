// The parsed form of a glob. Three node kinds are enough: every wildcard is a repetition of
// single-code-point steps, so the compiler (nfa.ts) needs no case per glob feature.
import { ANY_CODE_POINT, NON_SLASH, type CodePointRange, singleCodePoint, SLASH } from "./ranges.ts";

export type GlobNode =
  /** One code point from the set: a literal, "?", or a character class. */
  | { readonly kind: "step"; readonly ranges: readonly CodePointRange[] }
  /** Zero or more of the body; the body always consumes at least one code point. */
  | { readonly kind: "repeat"; readonly body: readonly GlobNode[] }
  /** "{a,b}": one of the branches. Braces stay alternation (never expanded), so size stays linear. */
  | { readonly kind: "alternation"; readonly branches: readonly (readonly GlobNode[])[] };

export function step(ranges: readonly CodePointRange[]): GlobNode {
  return { kind: "step", ranges };
}

export function literal(codePoint: number): GlobNode {
  return step(singleCodePoint(codePoint));
}

/** "*": zero or more code points other than "/". */
export const STAR: GlobNode = { kind: "repeat", body: [step(NON_SLASH)] };

/** A trailing, bare or mid-segment "**": zero or more code points, "/" included. */
export const ANYTHING: GlobNode = { kind: "repeat", body: [step(ANY_CODE_POINT)] };

// "**" + "/" at the start of a segment: zero or more whole directories, ([^/]* then "/") repeated.
export const DIRECTORIES: GlobNode = { kind: "repeat", body: [STAR, literal(SLASH)] };
