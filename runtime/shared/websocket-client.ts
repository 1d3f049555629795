// Runtime.webSocketClient (src/ports/websocket.ts) over a WHATWG-shaped WebSocket class: the global
// one on Bun and Deno, ws's on Node 20 (which has no global WebSocket). Both give text frames as
// strings to `onmessage`; a binary frame is decoded as UTF-8 (the inspector sends none).
import { RuntimeError } from "../../src/ports/errors.ts";
import type { WebSocketConnector } from "../../src/ports/websocket.ts";

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export type WebSocketClass = new (url: string) => WebSocketLike;

export function webSocketConnector(Socket: WebSocketClass): WebSocketConnector {
  return {
    connect(url, handlers, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
      return new Promise((resolve, reject) => {
        const socket = new Socket(url);
        const decoder = new TextDecoder();
        let open = false;
        let closed = false;
        const timer = setTimeout(() => {
          socket.close();
          reject(new RuntimeError("ETIMEDOUT", `no WebSocket connection to ${url} within ${timeoutMs} ms`));
        }, timeoutMs);
        socket.onopen = () => {
          clearTimeout(timer);
          open = true;
          resolve({ send: (text) => socket.send(text), close: () => socket.close() });
        };
        socket.onmessage = (event) => {
          const data = event.data;
          if (typeof data === "string") handlers.onMessage(data);
          else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) handlers.onMessage(decoder.decode(data));
        };
        socket.onerror = () => {
          if (open) return;
          clearTimeout(timer);
          reject(new RuntimeError("ECONNREFUSED", `the WebSocket connection to ${url} failed`));
        };
        socket.onclose = (event) => {
          clearTimeout(timer);
          if (!open) reject(new RuntimeError("ECONNREFUSED", `the WebSocket connection to ${url} closed before it opened`));
          if (closed) return;
          closed = true;
          if (open) handlers.onClose(event.reason === "" ? `closed (code ${event.code})` : event.reason);
        };
      });
    },
  };
}
