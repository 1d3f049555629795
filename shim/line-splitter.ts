// Splits stdin bytes into lines (MCP stdio: one JSON-RPC message per line, protocol.md B6).
// A line longer than the limit is never held in memory: only its first and last few KB are kept,
// enough to find its id for the error reply. Bytes that are not UTF-8 are reported, not decoded.
import { concatBytes } from "../src/lib/text/bytes.ts";

const NEWLINE = 0x0a;
const KEEP_BYTES = 4096;

export type Line =
  | { kind: "text"; text: string }
  | { kind: "not-utf8"; bytes: number }
  | { kind: "too-large"; bytes: number; head: string; tail: string };

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Set once the current line passed the limit. */
  private overflow: { head: Uint8Array; tail: Uint8Array } | undefined;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private readonly lossy = new TextDecoder("utf-8");

  constructor(private readonly maxBytes: number) {}

  /** Feeds a chunk; returns the lines it completed. */
  push(chunk: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        if (start < chunk.length) this.append(chunk.subarray(start));
        return lines;
      }
      this.append(chunk.subarray(start, nl));
      const line = this.take();
      if (line) lines.push(line);
      start = nl + 1;
    }
  }

  /** The last line when the input ends without a newline. */
  end(): Line[] {
    const line = this.take();
    return line ? [line] : [];
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    if (this.overflow) {
      this.overflow.tail = keepTail(this.overflow.tail, bytes);
      return;
    }
    this.parts.push(bytes);
    if (this.size > this.maxBytes) {
      const all = concatBytes(this.parts);
      this.overflow = { head: all.slice(0, KEEP_BYTES), tail: all.slice(-KEEP_BYTES) };
      this.parts = [];
    }
  }

  private take(): Line | undefined {
    const size = this.size;
    const overflow = this.overflow;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.overflow = undefined;
    if (overflow) return { kind: "too-large", bytes: size, head: this.lossy.decode(overflow.head), tail: this.lossy.decode(overflow.tail) };
    let bytes = concatBytes(parts);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1); // CRLF
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      return { kind: "not-utf8", bytes: size };
    }
    return text.trim() === "" ? undefined : { kind: "text", text };
  }
}

function keepTail(tail: Uint8Array, more: Uint8Array): Uint8Array {
  if (more.length >= KEEP_BYTES) return more.slice(-KEEP_BYTES);
  const joined = new Uint8Array(Math.min(KEEP_BYTES, tail.length + more.length));
  const fromTail = joined.length - more.length;
  joined.set(tail.subarray(tail.length - fromTail), 0);
  joined.set(more, fromTail);
  return joined;
}
