// The Debug Adapter Protocol's base protocol: each message is a `Content-Length: N` header, a blank
// line, and N bytes of UTF-8 JSON. The same framing runs over an adapter's stdio and over TCP, so it
// works on byte chunks of any size, split anywhere (a header across two chunks, two messages in one).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER_END = [13, 10, 13, 10];
/** A message larger than this is a broken adapter, not a big answer: stop reading rather than buffer it. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function encodeMessage(message: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  const header = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
  const out = new Uint8Array(header.length + body.length);
  out.set(header, 0);
  out.set(body, header.length);
  return out;
}

/** Accumulates chunks and yields each complete message's parsed JSON; throws on a malformed header. */
export class MessageReader {
  private buffer = new Uint8Array(0);

  push(chunk: Uint8Array): unknown[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    const messages: unknown[] = [];
    for (;;) {
      const end = indexOfHeaderEnd(this.buffer);
      if (end < 0) break;
      const length = contentLength(decoder.decode(this.buffer.subarray(0, end)));
      const start = end + HEADER_END.length;
      if (this.buffer.length < start + length) break;
      messages.push(JSON.parse(decoder.decode(this.buffer.subarray(start, start + length))));
      this.buffer = this.buffer.slice(start + length);
    }
    return messages;
  }
}

function contentLength(header: string): number {
  for (const line of header.split("\r\n")) {
    const match = /^content-length:\s*(\d+)\s*$/i.exec(line);
    if (match?.[1] !== undefined) {
      const length = Number(match[1]);
      if (length > MAX_MESSAGE_BYTES) throw new Error(`The adapter sent a message of ${length} bytes (more than ${MAX_MESSAGE_BYTES})`);
      return length;
    }
  }
  throw new Error(`The adapter sent a header without Content-Length: ${JSON.stringify(header.slice(0, 200))}`);
}

function indexOfHeaderEnd(bytes: Uint8Array): number {
  outer: for (let i = 0; i + HEADER_END.length <= bytes.length; i++) {
    for (let j = 0; j < HEADER_END.length; j++) if (bytes[i + j] !== HEADER_END[j]) continue outer;
    return i;
  }
  return -1;
}
