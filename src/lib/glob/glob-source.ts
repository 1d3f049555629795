// The pattern being parsed, as code points, with the columns errors report. Columns count code
// points from 1 in the pattern as the caller gave it, before the leading "./" or "/" was dropped.

export class GlobSource {
  private readonly chars: readonly string[];
  /** How many characters were dropped from the front: all ASCII ("./", "/"), one code point each. */
  private readonly dropped: number;

  constructor(
    /** The pattern as given, for error messages. */
    readonly pattern: string,
    /** The part of the pattern that is parsed: `pattern` without its leading "./" and "/". */
    body: string,
  ) {
    // Array.from splits by code point (a lone surrogate stays one element), as the matcher reads paths.
    this.chars = Array.from(body);
    this.dropped = pattern.length - body.length;
  }

  get length(): number {
    return this.chars.length;
  }

  /** The code point at `index` as a string, or undefined past the end. */
  at(index: number): string | undefined {
    return this.chars[index];
  }

  codePointAt(index: number): number {
    return this.chars[index]?.codePointAt(0) ?? 0;
  }

  column(index: number): number {
    return this.dropped + index + 1;
  }
}
