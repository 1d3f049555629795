// A Node response body (node:http IncomingMessage) as a web ReadableStream whose errors are
// RuntimeErrors (Readable.toWeb passes Node's errors through, and they would reach the core).
// Backpressure: the socket is paused while the stream's queue is full.
import type { IncomingMessage } from "node:http";
import { RuntimeError } from "../../src/ports/errors.ts";
import { toRuntimeError } from "./errors.ts";

export function webBody(res: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (err?: RuntimeError) => {
        if (settled) return;
        settled = true;
        if (err === undefined) controller.close();
        else controller.error(err);
      };
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) res.pause();
      });
      res.once("end", () => finish());
      res.on("error", (err) => finish(toRuntimeError(err)));
      // A connection that ends before the body does is a reset, on runtimes that say nothing else.
      res.once("close", () => {
        if (!res.complete) finish(new RuntimeError("ECONNRESET", "the connection closed before the body was complete"));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      settled = true;
      res.destroy();
    },
  });
}
