// WebSocket helpers for the Claude Code IDE link: an authenticated `ws` class for the SDK's
// WebSocketClientTransport, and raw connection attempts that report the refusal status.
import WebSocket, { type ClientOptions } from "ws";
import type { JsonRpcMessage } from "./raw-http.ts";

export const AUTH_HEADER = "x-claude-code-ide-authorization";

/**
 * The SDK's WebSocketClientTransport calls `new WebSocket(url, "mcp")` on the global class and
 * cannot add headers; this subclass of `ws` adds the IDE auth header to every connection.
 */
export function authedWebSocketClass(token: string): new (address: string | URL, protocols?: string | string[]) => WebSocket {
  return class AuthedWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions) {
      super(address, protocols, { ...options, headers: { ...options?.headers, [AUTH_HEADER]: token } });
    }
  };
}

export type ConnectOutcome = { ok: true; ws: WebSocket } | { ok: false; status: number; body: string };

/** Tries an upgrade; resolves with the open socket, or with the HTTP status of the refusal. */
export function tryConnect(url: string, opts: ClientOptions & { protocols?: string[] } = {}): Promise<ConnectOutcome> {
  const { protocols = ["mcp"], ...options } = opts;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { handshakeTimeout: 5_000, ...options });
    ws.once("open", () => resolve({ ok: true, ws }));
    ws.once("unexpected-response", (req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
      res.on("error", () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
      req.on("error", () => undefined);
    });
    ws.once("error", reject);
  });
}

export async function connectOrThrow(url: string, token: string): Promise<WebSocket> {
  const outcome = await tryConnect(url, { headers: { [AUTH_HEADER]: token } });
  if (!outcome.ok) throw new Error(`upgrade refused: HTTP ${outcome.status} ${outcome.body}`);
  return outcome.ws;
}

/** Collects JSON (or unparsable) frames of a socket, so tests can wait for a given one. */
export class FrameLog {
  readonly frames: Array<JsonRpcMessage | { unparsable: string }> = [];
  private waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString("utf8") : data.toString();
      try {
        this.frames.push(JSON.parse(text) as JsonRpcMessage);
      } catch {
        this.frames.push({ unparsable: text });
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /**
   * The first frame that matches. The default limit only catches a hang: it waits for another
   * process (the bridge) to answer, which a loaded machine can keep from running for seconds; a
   * first tool call also loads its toolset's modules then. Under the contract project's 30 s test
   * limit, so that a frame that never comes is named.
   */
  async waitFor(pred: (m: JsonRpcMessage) => boolean, timeoutMs = 20_000): Promise<JsonRpcMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find((f): f is JsonRpcMessage => !("unparsable" in f) && pred(f));
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a request and waits for the response with the same id. */
  async request(id: number, method: string, params: Record<string, unknown> = {}): Promise<JsonRpcMessage> {
    this.send({ jsonrpc: "2.0", id, method, params });
    return this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  async initialize(id = 1): Promise<JsonRpcMessage> {
    const res = await this.request(id, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw-ws-e2e", version: "0.0.0" },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return res;
  }
}

/** The socket's close; the default limit, like `waitFor`'s, is for a peer that never closes it. */
export function waitForClose(ws: WebSocket, timeoutMs = 20_000): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    if (ws.readyState === WebSocket.CLOSED) {
      reject(new Error("socket already closed; close code unknown"));
      return;
    }
    const t = setTimeout(() => reject(new Error(`socket not closed within ${timeoutMs} ms`)), timeoutMs);
    ws.once("close", (code, reason) => {
      clearTimeout(t);
      resolve({ code, reason: reason.toString() });
    });
  });
}
