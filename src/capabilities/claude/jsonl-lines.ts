// Splits a byte stream into JSON lines as it arrives, with a bound: a line longer than `maxLineBytes`
// is dropped whole (counted, never half-parsed), so one huge tool result in Claude Code's stream
// cannot grow the bridge's memory without limit.
export interface JsonlCounts {
  /** Lines that were not JSON objects. */
  unparsed: number;
  /** Lines dropped for their length. */
  oversized: number;
}

export async function readJsonl(
  stream: ReadableStream<Uint8Array>,
  onValue: (value: Record<string, unknown>) => void,
  opts: { maxLineBytes: number; signal?: AbortSignal },
): Promise<JsonlCounts> {
  const counts: JsonlCounts = { unparsed: 0, oversized: 0 };
  const decoder = new TextDecoder();
  let pending = "";
  let skipping = false;
  const take = (line: string) => {
    if (line.trim() === "") return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) onValue(value as Record<string, unknown>);
      else counts.unparsed++;
    } catch {
      counts.unparsed++;
    }
  };
  const reader = stream.getReader();
  // Cut short by the caller (something outside the process tree still holds the pipe).
  const cancel = () => void reader.cancel().catch(() => {});
  opts.signal?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (skipping) skipping = false;
        else take(line);
        newline = pending.indexOf("\n");
      }
      // Characters, not bytes: close enough for a bound (at most 3x over for non-ASCII).
      if (pending.length > opts.maxLineBytes) {
        if (!skipping) counts.oversized++;
        skipping = true;
        pending = "";
      }
    }
  } finally {
    opts.signal?.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
  pending += decoder.decode();
  if (!skipping) take(pending);
  return counts;
}
