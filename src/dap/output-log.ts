// What a debugged program printed (DAP output events), kept for paging: a bounded log where each
// entry has a running index, so a reader asks "from entry N" and learns what was dropped before it.

/** Characters kept; older entries are dropped first (the reader is told how many). */
const MAX_CHARS = 2 * 1024 * 1024;

export interface OutputEntry {
  index: number;
  category: string;
  text: string;
}

export class OutputLog {
  private entries: OutputEntry[] = [];
  private chars = 0;
  private next = 0;

  /** The index the next entry will get: where "what comes after now" starts. */
  get end(): number {
    return this.next;
  }

  append(category: string, text: string): void {
    if (text === "") return;
    this.entries.push({ index: this.next++, category, text });
    this.chars += text.length;
    while (this.chars > MAX_CHARS && this.entries.length > 1) {
      const dropped = this.entries.shift();
      this.chars -= dropped?.text.length ?? 0;
    }
  }

  /** Entries from `from` on, up to `maxChars` of text; `dropped` counts entries before the first kept one. */
  page(
    from: number,
    opts: { maxChars: number; categories?: readonly string[] },
  ): { entries: OutputEntry[]; next: number; dropped: number; more: boolean } {
    const first = this.entries[0]?.index ?? this.next;
    const dropped = Math.max(0, first - from);
    const out: OutputEntry[] = [];
    let size = 0;
    let next = Math.max(from, first);
    for (const entry of this.entries) {
      if (entry.index < next) continue;
      if (opts.categories !== undefined && !opts.categories.includes(entry.category)) {
        next = entry.index + 1;
        continue;
      }
      if (size + entry.text.length > opts.maxChars && out.length > 0) break;
      out.push(entry);
      size += entry.text.length;
      next = entry.index + 1;
    }
    return { entries: out, next, dropped, more: next < this.next };
  }

  /** The text of every kept entry of the given categories. */
  text(categories: readonly string[]): string {
    return this.entries
      .filter((e) => categories.includes(e.category))
      .map((e) => e.text)
      .join("");
  }
}
