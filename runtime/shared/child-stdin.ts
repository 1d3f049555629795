// child.stdin for `stdin: "pipe"` (src/ports/spawn.ts, Child): one web WritableStream over what the
// runtime gives (a Node Writable, Deno's WritableStream) whose failures are RuntimeErrors. Writing
// to a child that closed its stdin or exited fails with EPIPE; it never crashes the process.
import type { Writable } from "node:stream";
import { RuntimeError } from "../../src/ports/errors.ts";
import { toRuntimeError } from "./errors.ts";

/** The runtime's end of the pipe. */
export interface StdinSink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): void;
}

export function childStdin(sink: StdinSink): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write: (chunk) => sink.write(chunk).catch((err: unknown) => Promise.reject(pipeError(err))),
    close: () => sink.close().catch((err: unknown) => Promise.reject(pipeError(err))),
    abort: () => sink.abort(),
  });
}

/** A stdin for a child that never ran: every write fails with the spawn's error. */
export function deadStdin(err: Promise<RuntimeError>): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({ write: async () => Promise.reject(await err) });
}

/** Node's (and Bun's and Deno's node:child_process) stdin. */
export function nodeStdinSink(stdin: Writable): StdinSink {
  return {
    write: (chunk) =>
      new Promise((resolve, reject) => {
        // Node destroys stdin once the child is gone, and a write then fails with a stream-state error.
        if (stdin.destroyed) return reject(new RuntimeError("EPIPE", "the child's stdin is closed"));
        // The callback runs once the chunk is handed to the OS, which gives the writer backpressure.
        stdin.write(chunk, (err) => (err ? reject(err) : resolve()));
      }),
    close: () =>
      new Promise((resolve, reject) => {
        if (stdin.destroyed) return resolve();
        stdin.end((err?: Error | null) => (err ? reject(err) : resolve()));
      }),
    abort: () => stdin.destroy(),
  };
}

/** A failed write to a pipe is EPIPE unless the runtime named something more precise. */
function pipeError(err: unknown): RuntimeError {
  const translated = toRuntimeError(err);
  return translated.code === "OTHER"
    ? new RuntimeError("EPIPE", `the child's stdin is closed: ${translated.message}`, { cause: err })
    : translated;
}
