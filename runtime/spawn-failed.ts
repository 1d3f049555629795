// A Child for a process that never started (missing command or cwd): empty streams and an
// `exited` that rejects with the runtime's error, which is how Node's spawn reports it.
import type { Child } from "./types.ts";

export function failedChild(err: unknown): Child {
  const empty = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const exited = Promise.reject(err instanceof Error ? err : new Error(String(err)));
  // Callers that only read the streams must not crash the process with an unhandled rejection.
  exited.catch(() => {});
  return { pid: undefined, stdout: empty(), stderr: empty(), exited, kill: () => {} };
}
