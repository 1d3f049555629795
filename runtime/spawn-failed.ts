// A Child for a process that never started (missing command or cwd): empty streams and an
// `exited` that rejects with the runtime's error, which is how Node's spawn reports it.
import type { Child } from "../src/runtime.ts";
import { toRuntimeError } from "./node-errors.ts";

export function failedChild(err: unknown): Child {
  const empty = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const exited = Promise.reject(toRuntimeError(err));
  // Callers that only read the streams must not crash the process with an unhandled rejection.
  exited.catch(() => {});
  return { pid: undefined, stdout: empty(), stderr: empty(), exited, kill: () => {} };
}

/** Exit status of a child ended by SIGTERM (128 + 15), what an aborted spawn reports everywhere. */
export const ABORTED_EXIT = 143;

/**
 * A Child for a spawn whose signal was aborted before it started: nothing runs, and `exited`
 * resolves as if the child had been sent SIGTERM at once. (Node spawns and kills, Bun rejects,
 * Deno reported exit 0; callers get one answer.)
 */
export function abortedChild(): Child {
  const empty = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return { pid: undefined, stdout: empty(), stderr: empty(), exited: Promise.resolve(ABORTED_EXIT), kill: () => {} };
}
