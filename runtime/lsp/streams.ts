// vscode-jsonrpc's stream interfaces (RAL.ReadableStream / WritableStream) over a child's web
// streams, so one LSP framing serves Node, Bun and Deno whatever streams their spawn gives.
import type { RAL } from "vscode-jsonrpc/node";
import { jsonRpc } from "./json-rpc.ts";

/** Pumps `stream` into data events until it ends or fails. */
export function readableForJsonRpc(stream: ReadableStream<Uint8Array>): RAL.ReadableStream {
  const { Emitter } = jsonRpc();
  const data = new Emitter<Uint8Array>();
  const close = new Emitter<void>();
  const error = new Emitter<unknown>();
  const end = new Emitter<void>();
  const reader = stream.getReader();
  let started = false;
  // Pumped from the first data listener on, so nothing the server says is fired to no one.
  const pump = async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        data.fire(value);
      }
    } catch (err) {
      error.fire(err);
    }
    end.fire();
    close.fire();
  };
  return {
    onData: (listener) => {
      const subscription = data.event(listener);
      if (!started) {
        started = true;
        void pump();
      }
      return subscription;
    },
    onClose: (listener) => close.event(listener),
    onError: (listener) => error.event(listener),
    onEnd: (listener) => end.event(listener),
  };
}

export function writableForJsonRpc(stream: WritableStream<Uint8Array>): RAL.WritableStream {
  const { Emitter } = jsonRpc();
  const writer = stream.getWriter();
  const close = new Emitter<void>();
  const error = new Emitter<unknown>();
  const end = new Emitter<void>();
  const encoder = new TextEncoder();
  let ended = false;
  return {
    onClose: (listener) => close.event(listener),
    onError: (listener) => error.event(listener),
    onEnd: (listener) => end.event(listener),
    async write(chunk: Uint8Array | string) {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
      try {
        await writer.write(bytes);
      } catch (err) {
        error.fire(err);
        throw err;
      }
    },
    end() {
      if (ended) return;
      ended = true;
      void writer
        .close()
        .catch(() => {})
        .finally(() => {
          end.fire();
          close.fire();
        });
    },
  };
}
