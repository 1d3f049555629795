// Runtime.tcp (src/ports/tcp.ts) on node:net, which Node, Bun and Deno all run: one client socket
// as web streams, whose failures are RuntimeErrors.
import { connect } from "node:net";
import { Readable } from "node:stream";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { TcpConnector, TcpSocket } from "../../src/ports/tcp.ts";
import { toRuntimeError } from "./errors.ts";

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export const tcpConnector: TcpConnector = {
  connect(host, port, opts = {}) {
    return new Promise<TcpSocket>((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new RuntimeError("ETIMEDOUT", `no connection to ${host}:${port} within ${opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS} ms`));
      }, opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
      socket.once("error", (err) => {
        clearTimeout(timer);
        reject(toRuntimeError(err));
      });
      socket.once("connect", () => {
        clearTimeout(timer);
        // Later errors (a reset) end the readable; the writer hears of them on its next write.
        socket.on("error", () => {});
        resolve({
          readable: Readable.toWeb(socket) as unknown as ReadableStream<Uint8Array>,
          writable: new WritableStream<Uint8Array>({
            write: (chunk) =>
              new Promise<void>((done, fail) => {
                if (socket.destroyed) return fail(new RuntimeError("EPIPE", `the connection to ${host}:${port} is closed`));
                socket.write(chunk, (err) => (err ? fail(toRuntimeError(err)) : done()));
              }),
            close: () => new Promise<void>((done) => socket.end(done)),
            abort: () => void socket.destroy(),
          }),
          close: () => void socket.destroy(),
        });
      });
    });
  },
};
