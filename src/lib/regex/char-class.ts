// Sets of code points for the regex engine: ranges plus Unicode properties (\p{L}, and \w \d \s,
// which are Unicode-aware as in ripgrep's regex dialect). Properties are tested with a one-character
// `u` RegExp, which cannot backtrack; ASCII answers are precomputed in a bitmap and other answers
// are cached, so matching a class is a table read for almost every character of real code.
import { normalizeRanges, type CodePointRange } from "../glob/ranges.ts";

export type { CodePointRange } from "../glob/ranges.ts";

export interface CharClassSpec {
  ranges: CodePointRange[];
  /** Unicode property tests, each `\p{...}` (or `\P{...}` when negated). */
  properties: { test: RegExp; negated: boolean }[];
  negated: boolean;
}

/** Non-ASCII answers kept per class; beyond, answers are computed again (still correct). */
const CACHE_LIMIT = 4096;

export class CharClass {
  private readonly ascii = new Uint8Array(128);
  private readonly ranges: CodePointRange[];
  private readonly cache = new Map<number, boolean>();

  constructor(private readonly spec: CharClassSpec) {
    this.ranges = normalizeRanges(spec.ranges);
    for (let cp = 0; cp < 128; cp++) this.ascii[cp] = this.compute(cp) ? 1 : 0;
  }

  matches(cp: number): boolean {
    if (cp < 128) return this.ascii[cp] === 1;
    const known = this.cache.get(cp);
    if (known !== undefined) return known;
    const answer = this.compute(cp);
    if (this.cache.size < CACHE_LIMIT) this.cache.set(cp, answer);
    return answer;
  }

  /** The class's single code point, when it is exactly one (for the literal prefilter). */
  single(): number | undefined {
    const only = this.ranges[0];
    return !this.spec.negated && this.spec.properties.length === 0 && this.ranges.length === 1 && only !== undefined && only.lo === only.hi
      ? only.lo
      : undefined;
  }

  private compute(cp: number): boolean {
    const inside = inRanges(this.ranges, cp) || this.spec.properties.some((p) => p.test.test(String.fromCodePoint(cp)) !== p.negated);
    return inside !== this.spec.negated;
  }
}

function inRanges(ranges: readonly CodePointRange[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid] as CodePointRange;
    if (cp < r.lo) hi = mid - 1;
    else if (cp > r.hi) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A Unicode property by its name as ripgrep takes it (general category, script, binary property). */
export function unicodeProperty(name: string): RegExp | undefined {
  const spelled = name.replace(/^(sc|script)\s*[=:]\s*/i, "Script=").replace(/^(gc|general_category)\s*[=:]\s*/i, "General_Category=");
  for (const candidate of [spelled, `Script=${spelled}`]) {
    try {
      return new RegExp(`^\\p{${candidate}}$`, "u");
    } catch {
      // Not this spelling; try the next.
    }
  }
  return undefined;
}

/** \w: Unicode word characters (UTS #18 Annex C), as ripgrep's \w. */
export const WORD = /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]$/u;
export const DIGIT = /^\p{Nd}$/u;
export const SPACE = /^\p{White_Space}$/u;

export function isWordChar(cp: number): boolean {
  if (cp < 128) return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f;
  return WORD.test(String.fromCodePoint(cp));
}

/** ASCII classes of [[:name:]], as ripgrep defines them. */
export const POSIX_CLASSES: Readonly<Record<string, readonly [number, number][]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x5f, 0x5f],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** The code points a case-insensitive match treats as `cp` (simple case folding, approximately). */
export function caseVariants(cp: number): number[] {
  const out = new Set([cp]);
  const ch = String.fromCodePoint(cp);
  for (const variant of [ch.toLowerCase(), ch.toUpperCase()]) {
    const code = variant.codePointAt(0);
    if (code !== undefined && String.fromCodePoint(code) === variant) out.add(code);
  }
  for (const orbit of ORBITS) if (orbit.some((c) => out.has(c))) for (const c of orbit) out.add(c);
  return [...out];
}

/** Folds toLowerCase/toUpperCase do not reach from every member (KELVIN SIGN, LONG S, ANGSTROM SIGN...). */
const ORBITS: readonly (readonly number[])[] = [
  [0x4b, 0x6b, 0x212a],
  [0x53, 0x73, 0x17f],
  [0xc5, 0xe5, 0x212b],
  [0x3a9, 0x3c9, 0x2126],
  [0x398, 0x3b8, 0x3d1, 0x3f4],
  [0x3a3, 0x3c2, 0x3c3],
  [0x1e9e, 0xdf],
];

/** Ranges with every case variant added; big ranges only get their ASCII letters folded. */
export function foldRanges(ranges: readonly CodePointRange[]): CodePointRange[] {
  const out = [...ranges];
  for (const { lo, hi } of ranges) {
    const span = hi - lo + 1;
    const [from, to] = span <= 5000 ? [lo, hi] : [Math.max(lo, 0x41), Math.min(hi, 0x7a)];
    for (let cp = from; cp <= to; cp++) for (const v of caseVariants(cp)) if (v !== cp) out.push({ lo: v, hi: v });
  }
  return normalizeRanges(out);
}
