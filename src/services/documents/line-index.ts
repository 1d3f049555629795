// Line and column positions in a document's text (1-based, as every tool of the bridge counts them),
// and back. Columns count UTF-16 code units, as VS Code and the language servers do, so a position
// means the same to the bridge, the editor and the LSP tools.

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
    // A final "\n" ends the last line; it does not begin another.
    if (text.endsWith("\n") || text === "") this.starts.pop();
  }

  /** Lines in the text (0 for an empty text). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset where line `line` begins; lineCount + 1 is the end of the text. */
  lineStart(line: number): number {
    return line > this.starts.length ? this.text.length : (this.starts[line - 1] as number);
  }

  /** Offset of the end of line `line`, before its "\n". */
  lineEnd(line: number): number {
    const next = line < this.starts.length ? (this.starts[line] as number) - 1 : this.text.length - (this.text.endsWith("\n") ? 1 : 0);
    return Math.max(next, this.lineStart(line));
  }

  /** Offset just after line `line` and its "\n" (the start of the next line). */
  lineAfter(line: number): number {
    return line < this.starts.length ? (this.starts[line] as number) : this.text.length;
  }

  /** The 1-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Line `line` without its "\n". */
  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }
}
