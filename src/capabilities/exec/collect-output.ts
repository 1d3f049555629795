// A child's stdout and stderr, each kept up to a byte cap (what comes after is read and dropped, so
// the child never blocks on a full pipe), decoded as UTF-8 once complete. "head-and-tail" keeps the
// first and the last half of the cap instead, with a marker between: a command's verdict (a test
// summary, a compiler's last error) is usually at the end.
import type { Child } from "../../ports/spawn.ts";
import { concatBytes } from "../../lib/text/bytes.ts";

export interface CollectedOutput {
  stdout: string;
  stderr: string;
  /** Output beyond the cap was dropped. */
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

export type OutputKeep = "head" | "head-and-tail";

interface CollectOptions {
  maxBytes: number;
  keep?: OutputKeep;
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
  /** Stops reading (what was read is kept): for pipes held open by a process that will not end. */
  signal?: AbortSignal;
}

export async function collectOutput(child: Pick<Child, "stdout" | "stderr">, opts: CollectOptions): Promise<CollectedOutput> {
  const { onOutput } = opts;
  const [stdout, stderr] = await Promise.all([
    drain(child.stdout, opts, onOutput && ((t) => onOutput("stdout", t))),
    drain(child.stderr, opts, onOutput && ((t) => onOutput("stderr", t))),
  ]);
  return { stdout: stdout.text, stderr: stderr.text, stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated };
}

async function drain(
  stream: ReadableStream<Uint8Array>,
  opts: CollectOptions,
  onText: ((text: string) => void) | undefined,
): Promise<{ text: string; truncated: boolean }> {
  const tailMode = opts.keep === "head-and-tail";
  const headCap = tailMode ? Math.ceil(opts.maxBytes / 2) : opts.maxBytes;
  const head = new ByteBuffer();
  const tail = new ByteBuffer();
  let total = 0;
  const live = new TextDecoder();
  const reader = stream.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  if (opts.signal?.aborted === true) stop();
  opts.signal?.addEventListener("abort", stop, { once: true });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    onText?.(live.decode(value, { stream: true }));
    total += value.length;
    const room = headCap - head.size;
    if (room > 0) head.push(value.length > room ? value.subarray(0, room) : value);
    if (tailMode && value.length > room) {
      tail.push(room > 0 ? value.subarray(room) : value);
      tail.keepLast(opts.maxBytes - headCap);
    }
  }
  opts.signal?.removeEventListener("abort", stop);
  const omitted = total - head.size - tail.size;
  // A cut in the middle of a character decodes to U+FFFD at the cut; nothing else changes.
  const headText = new TextDecoder().decode(head.bytes());
  if (!tailMode || tail.size === 0) return { text: headText, truncated: omitted > 0 };
  const marker = omitted > 0 ? `\n[... ${omitted} bytes of output omitted ...]\n` : "";
  return { text: headText + marker + new TextDecoder().decode(tail.bytes()), truncated: omitted > 0 };
}

/** Chunks of bytes, joined only once at the end. */
class ByteBuffer {
  private parts: Uint8Array[] = [];
  size = 0;

  push(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }

  /** Drops bytes from the front until at most `max` are left. */
  keepLast(max: number): void {
    while (this.size > max && this.parts.length > 0) {
      const first = this.parts[0] ?? new Uint8Array();
      const excess = this.size - max;
      if (first.length <= excess) {
        this.parts.shift();
        this.size -= first.length;
      } else {
        this.parts[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  bytes(): Uint8Array {
    return concatBytes(this.parts);
  }
}
