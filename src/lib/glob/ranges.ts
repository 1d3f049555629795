// Sets of Unicode code points as sorted, disjoint, inclusive ranges: what one step of a glob
// consumes ("a", "?", "[a-z]", "[!abc]"). The matcher works on code points, not UTF-16 units,
// so "?" takes a whole emoji rather than half a surrogate pair.

/** An inclusive range of code points. */
export interface CodePointRange {
  readonly lo: number;
  readonly hi: number;
}

export const MAX_CODE_POINT = 0x10ffff;
export const SLASH = 0x2f;

/** "?" and the body of "*": every code point but "/". */
export const NON_SLASH: readonly CodePointRange[] = [
  { lo: 0, hi: SLASH - 1 },
  { lo: SLASH + 1, hi: MAX_CODE_POINT },
];

/** The body of a "**" that is not a whole segment: anything, "/" included. */
export const ANY_CODE_POINT: readonly CodePointRange[] = [{ lo: 0, hi: MAX_CODE_POINT }];

export function singleCodePoint(codePoint: number): readonly CodePointRange[] {
  return [{ lo: codePoint, hi: codePoint }];
}

/** Sorted, with overlapping and touching ranges merged. */
export function normalizeRanges(ranges: readonly CodePointRange[]): CodePointRange[] {
  const sorted = [...ranges].sort((a, b) => a.lo - b.lo);
  const out: CodePointRange[] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && range.lo <= last.hi + 1) out[out.length - 1] = { lo: last.lo, hi: Math.max(last.hi, range.hi) };
    else out.push(range);
  }
  return out;
}

/** Every code point not in `ranges`. */
export function complementRanges(ranges: readonly CodePointRange[]): CodePointRange[] {
  const out: CodePointRange[] = [];
  let next = 0;
  for (const { lo, hi } of normalizeRanges(ranges)) {
    if (lo > next) out.push({ lo: next, hi: lo - 1 });
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push({ lo: next, hi: MAX_CODE_POINT });
  return out;
}
