// The parsed form of a regex of the bridge's dialect (src/lib/regex/parse.ts). Literals are classes of
// one code point (or of its case variants), so the compiler needs a case per construct, not per
// syntax; `text` keeps what a literal was, for the prefilter that skips lines quickly.
import type { CharClass } from "./char-class.ts";

export type Assertion = "start" | "end" | "wordBoundary" | "notWordBoundary";

export type RegexNode =
  | { readonly kind: "empty" }
  | { readonly kind: "class"; readonly cls: CharClass; readonly literal?: string }
  | { readonly kind: "concat"; readonly items: readonly RegexNode[] }
  | { readonly kind: "alternation"; readonly branches: readonly RegexNode[] }
  | { readonly kind: "repeat"; readonly body: RegexNode; readonly min: number; readonly max: number; readonly greedy: boolean }
  | { readonly kind: "group"; readonly body: RegexNode; readonly index: number | undefined }
  | { readonly kind: "assert"; readonly what: Assertion };

export interface ParsedRegex {
  readonly root: RegexNode;
  /** Capture groups, not counting the whole match. */
  readonly groups: number;
  /** Group names to their numbers. */
  readonly names: ReadonlyMap<string, number>;
}
