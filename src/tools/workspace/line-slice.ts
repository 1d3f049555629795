// Picks a line range out of a file's bytes under a byte budget, working on bytes so a large
// file is never decoded whole: only the slice that is returned becomes a string.

export interface LineSlice {
  /** Byte offsets of the slice: [start, end). */
  start: number;
  end: number;
  startLine: number;
  /** Last line included (possibly only in part, see `partialLine`); startLine - 1 when empty. */
  endLine: number;
  totalLines: number;
  /** Fewer bytes or lines than asked for were returned. */
  truncated: boolean;
  /** The budget ended inside line `endLine`. */
  partialLine: boolean;
}

export interface SliceRequest {
  startLine: number;
  /** Clamped to the last line. */
  endLine: number | undefined;
  maxBytes: number;
}

const NEWLINE = 0x0a;

export function sliceLines(bytes: Uint8Array, req: SliceRequest): LineSlice {
  // starts[k] is the byte offset of line k+1; a final "\n" does not begin another line.
  const starts: number[] = bytes.length === 0 ? [] : [0];
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === NEWLINE) starts.push(i + 1);
  const totalLines = starts.length;
  const lineStart = (line: number) => starts[line - 1] ?? bytes.length;
  const last = Math.min(req.endLine ?? totalLines, totalLines);
  const start = lineStart(req.startLine);
  const wanted = lineStart(last + 1);
  if (wanted - start <= req.maxBytes) {
    return { start, end: wanted, startLine: req.startLine, endLine: Math.max(last, req.startLine - 1), totalLines, truncated: false, partialLine: false };
  }
  const budgetEnd = start + req.maxBytes;
  // The last whole line that fits: the greatest line start in (start, budgetEnd].
  let endLine = req.startLine;
  while (endLine + 1 <= last && lineStart(endLine + 1) <= budgetEnd) endLine++;
  const wholeEnd = lineStart(endLine);
  if (wholeEnd > start) return { start, end: wholeEnd, startLine: req.startLine, endLine: endLine - 1, totalLines, truncated: true, partialLine: false };
  // Even the first line does not fit: cut it at a UTF-8 character boundary.
  let end = budgetEnd;
  while (end > start && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { start, end, startLine: req.startLine, endLine: req.startLine, totalLines, truncated: true, partialLine: true };
}
