// Reads a line range of a file through its descriptor in fixed-size chunks, so memory stays bounded
// by the chunk and the byte budget whatever the file's size (20 concurrent one-line reads of a 60 MB
// file must not load it 20 times). Lines before the range are only counted, never kept; reading stops as soon
// as the range or a budget is complete. A final "\n" does not begin another line.
import { concatBytes } from "../lib/text/bytes.ts";

const CHUNK_BYTES = 64 * 1024;
const LF = 0x0a;
/** After the range, the rest of a file is counted for its line total only when this small. */
const COUNT_REST_LIMIT = 4 * 1024 * 1024;

export interface ByteReader {
  read(position: number, length: number): Promise<Uint8Array>;
}

interface LineRequest {
  /** 1-based. */
  startLine: number;
  /** Inclusive; when absent the range ends at `maxLines` lines. */
  endLine: number | undefined;
  maxLines: number;
  /** Budget of content bytes, newlines included. */
  maxBytes: number;
}

export interface LinesRead {
  /** Decoded lines without their "\n" ("\r" kept). */
  lines: string[];
  /** Last line included; startLine - 1 when none. */
  endLine: number;
  /** The byte budget ended inside line `endLine`, which is cut. */
  partialLine: boolean;
  /** Why reading stopped. */
  stoppedBy: "end" | "endLine" | "maxLines" | "maxBytes";
  /** Lines in the whole file, when it was read to the end or the rest was small enough to count. */
  totalLines: number | undefined;
}

export async function readLines(reader: ByteReader, size: number, req: LineRequest): Promise<LinesRead> {
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let used = 0;
  /** The line being read, and the file offset where it began. */
  let lineNo = 1;
  let lineStart = 0;
  let pos = 0;
  let lastByte = -1;
  const collecting = () => lineNo >= req.startLine;
  const stopEarly = async (stoppedBy: LinesRead["stoppedBy"], partialLine: boolean): Promise<LinesRead> => {
    // The total is worth a second read only when what is left is small.
    const rest = size - lineStart;
    const totalLines = rest <= 0 ? lineNo - 1 : rest <= COUNT_REST_LIMIT ? lineNo - 1 + (await countLines(reader, lineStart)) : undefined;
    return { lines, endLine: req.startLine + lines.length - 1, partialLine, stoppedBy, totalLines };
  };

  for (;;) {
    const chunk = await reader.read(pos, CHUNK_BYTES);
    if (chunk.length === 0) break;
    lastByte = chunk[chunk.length - 1] ?? lastByte;
    let i = 0;
    while (i < chunk.length) {
      const nl = chunk.indexOf(LF, i);
      const end = nl < 0 ? chunk.length : nl;
      if (collecting()) {
        const segment = chunk.subarray(i, end);
        // The line (and its newline) must fit what is left of the budget.
        if (used + pendingBytes + segment.length + (nl < 0 ? 0 : 1) > req.maxBytes) {
          if (lines.length > 0) return stopEarly("maxBytes", false);
          // Even the first line does not fit: cut it at a character boundary.
          pending.push(segment);
          lines.push(decoder.decode(cutToCharacter(concatBytes(pending), req.maxBytes)));
          return stopEarly("maxBytes", true);
        }
        pending.push(segment);
        pendingBytes += segment.length;
      }
      if (nl < 0) break;
      const finished = lineNo;
      lineNo += 1;
      lineStart = pos + nl + 1;
      i = nl + 1;
      if (finished >= req.startLine) {
        lines.push(decoder.decode(concatBytes(pending)));
        used += pendingBytes + 1;
        pending = [];
        pendingBytes = 0;
        if (req.endLine !== undefined ? finished >= req.endLine : lines.length >= req.maxLines)
          return stopEarly(req.endLine !== undefined ? "endLine" : "maxLines", false);
      }
    }
    pos += chunk.length;
  }
  // End of file: a last line without a newline still counts.
  if (collecting() && pendingBytes > 0) lines.push(decoder.decode(concatBytes(pending)));
  const totalLines = pos === 0 ? 0 : lastByte === LF ? lineNo - 1 : lineNo;
  return { lines, endLine: req.startLine + lines.length - 1, partialLine: false, stoppedBy: "end", totalLines };
}

/** Lines from `position` to the end of the file. */
async function countLines(reader: ByteReader, position: number): Promise<number> {
  let count = 0;
  let lastByte = LF;
  for (let pos = position; ; ) {
    const chunk = await reader.read(pos, CHUNK_BYTES);
    if (chunk.length === 0) break;
    for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) count += 1;
    lastByte = chunk[chunk.length - 1] ?? lastByte;
    pos += chunk.length;
  }
  return lastByte === LF ? count : count + 1;
}

/** The first `maxBytes` bytes, shortened so no UTF-8 sequence is split. */
function cutToCharacter(bytes: Uint8Array, maxBytes: number): Uint8Array {
  let end = Math.min(maxBytes, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}
