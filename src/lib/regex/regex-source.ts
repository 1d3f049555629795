// The pattern being parsed, read by code point, and the errors the parser raises: each names what
// is wrong and where (the column counts code points from 1), and says what to write instead.
import { ToolError } from "../../errors.ts";

const SHOWN_CHARS = 120;

export class RegexSource {
  private readonly chars: readonly string[];
  private index = 0;

  constructor(readonly pattern: string) {
    this.chars = Array.from(pattern);
  }

  get done(): boolean {
    return this.index >= this.chars.length;
  }

  /** 1-based column of the next character. */
  get column(): number {
    return this.index + 1;
  }

  peek(ahead = 0): string | undefined {
    return this.chars[this.index + ahead];
  }

  next(): string | undefined {
    const ch = this.chars[this.index];
    if (ch !== undefined) this.index++;
    return ch;
  }
}

export function regexError(src: RegexSource, what: string, opts: { suggestion: string }): ToolError {
  const shown = src.pattern.length > SHOWN_CHARS ? `${src.pattern.slice(0, SHOWN_CHARS)}...` : src.pattern;
  return new ToolError("invalid_arguments", `Invalid regex at column ${src.column} in "${shown}": ${what}`, {
    suggestion: `${opts.suggestion} Or pass literal: true to search for the text as it is.`,
  });
}
