// A child's stdout and stderr, each kept up to a byte cap (what comes after is read and dropped, so
// the child never blocks on a full pipe), decoded as UTF-8 once complete.
import type { Child } from "../runtime.ts";
import { concatBytes } from "../text/bytes.ts";

export interface CollectedOutput {
  stdout: string;
  stderr: string;
  /** Output beyond the cap was dropped. */
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

export async function collectOutput(child: Pick<Child, "stdout" | "stderr">, maxBytes: number, onOutput?: (stream: "stdout" | "stderr", text: string) => void): Promise<CollectedOutput> {
  const [stdout, stderr] = await Promise.all([drain(child.stdout, maxBytes, onOutput && ((t) => onOutput("stdout", t))), drain(child.stderr, maxBytes, onOutput && ((t) => onOutput("stderr", t)))]);
  return { stdout: stdout.text, stderr: stderr.text, stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated };
}

async function drain(stream: ReadableStream<Uint8Array>, maxBytes: number, onText: ((text: string) => void) | undefined): Promise<{ text: string; truncated: boolean }> {
  const kept: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const live = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    onText?.(live.decode(value, { stream: true }));
    const room = maxBytes - size;
    if (room <= 0) {
      truncated = true;
      continue;
    }
    const part = value.length > room ? value.subarray(0, room) : value;
    if (part.length < value.length) truncated = true;
    kept.push(part);
    size += part.length;
  }
  // A cut in the middle of a character decodes to U+FFFD at the very end; nothing else changes.
  return { text: new TextDecoder().decode(concatBytes(kept)), truncated };
}
