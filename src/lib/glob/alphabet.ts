// The pattern's alphabet: code points split into classes that no state of the NFA tells apart
// (for "src/*.ts": "s", "r", "c", "/", ".", "t", and the runs between them). Transitions are
// then computed and cached once per class instead of once per code point.
import { type CodePointRange, MAX_CODE_POINT } from "./ranges.ts";

/** Code points below this are looked up in a table; the rest by binary search. */
const TABLE_SIZE = 128;

export class Alphabet {
  /** The first code point of each class, ascending; starts[0] is 0. */
  private readonly starts: Int32Array;
  private readonly table = new Uint16Array(TABLE_SIZE);

  constructor(sets: Iterable<readonly CodePointRange[]>) {
    const bounds = new Set<number>([0]);
    for (const ranges of sets) {
      for (const { lo, hi } of ranges) {
        bounds.add(lo);
        // No class past the last code point, so "anything" is the classes 0 .. size-1.
        if (hi < MAX_CODE_POINT) bounds.add(hi + 1);
      }
    }
    this.starts = Int32Array.from(bounds).sort();
    for (let codePoint = 0, cls = 0; codePoint < TABLE_SIZE; codePoint++) {
      while (cls + 1 < this.starts.length && (this.starts[cls + 1] as number) <= codePoint) cls++;
      this.table[codePoint] = cls;
    }
  }

  get size(): number {
    return this.starts.length;
  }

  classOf(codePoint: number): number {
    return codePoint < TABLE_SIZE ? (this.table[codePoint] as number) : this.search(codePoint);
  }

  /** The classes `ranges` covers, as inclusive [first, last] pairs. Exact: each lo and hi+1 starts a class. */
  classRanges(ranges: readonly CodePointRange[]): number[] {
    const pairs: number[] = [];
    for (const { lo, hi } of ranges) pairs.push(this.classOf(lo), this.classOf(hi));
    return pairs;
  }

  /** The last class starting at or before `codePoint`. */
  private search(codePoint: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] as number) <= codePoint) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
