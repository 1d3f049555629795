// One WebSocket to the bridge (protocol.md A2): ws://127.0.0.1:<port>/, subprotocol `mcp`, the
// IDE token, our session UUID, and the opt-in for the bridge's attach notice. Node 20 has no
// global WebSocket, hence `ws` (Bun and Deno provide it under that name too).
import { createRequire } from "node:module";
import type WebSocketType from "ws";
import { ATTACH_NOTICE_HEADER, CloseCode, IDE_AUTH_HEADER, SESSION_ID_HEADER } from "../src/wire.ts";

let wsModule: Promise<typeof WebSocketType> | undefined;

/** Run from the shim's Node bundle (scripts/bundle.mjs), which holds its own `ws`. */
const BUNDLED = import.meta.url.endsWith(".cjs");

/**
 * Loads `ws` once. Not at import: a shim that has to start the bridge first loads it while the
 * bridge starts (loadWebSocket() right after the spawn), not before the spawn.
 * In the bundle, its own copy: compiled with the bundle's code cache, and no package to look for
 * (resolving `ws` and compiling its files were a third of the shim's start with a bridge running).
 * Elsewhere `require` rather than `import`: Node loads the CommonJS `ws` about 35 ms faster that
 * way (no ESM wrapper, no cjs-module-lexer). The import is the fallback for a runtime whose
 * require cannot reach it.
 */
export function loadWebSocket(): Promise<typeof WebSocketType> {
  wsModule ??= (async () => {
    if (BUNDLED) return (await import("ws")).default;
    try {
      return createRequire(import.meta.url)("ws") as typeof WebSocketType;
    } catch {
      return (await import("ws")).default;
    }
  })();
  return wsModule;
}

export interface BridgeLink {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  /** Bytes queued for the socket; the shim pauses stdin above a limit. */
  readonly bufferedAmount: number;
  /** Stops reading frames (stdout is full) / starts again. */
  pause(): void;
  resume(): void;
  onMessage(fn: (text: string) => void): void;
  onClose(fn: (code: number, reason: string) => void): void;
}

export type ConnectOutcome =
  | { ok: true; link: BridgeLink }
  | { ok: false; status: number; body: string }
  | { ok: false; status: 0; body: string; code: string };

interface ConnectOptions {
  port: number;
  token: string;
  sessionId: string;
  userAgent: string;
  timeoutMs?: number;
}

export async function connectBridge(opts: ConnectOptions): Promise<ConnectOutcome> {
  const WebSocket = await loadWebSocket();
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${opts.port}/`, ["mcp"], {
      headers: {
        [IDE_AUTH_HEADER]: opts.token,
        [SESSION_ID_HEADER]: opts.sessionId,
        [ATTACH_NOTICE_HEADER]: "1",
        "user-agent": opts.userAgent,
      },
      handshakeTimeout: opts.timeoutMs ?? 5_000,
      // Loopback: compression would cost CPU and latency for nothing.
      perMessageDeflate: false,
    });
    let settled = false;
    const settle = (outcome: ConnectOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    ws.once("unexpected-response", (req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        if (body.length < 1000) body += d;
      });
      const done = () => {
        settle({ ok: false, status: res.statusCode ?? 0, body: body.slice(0, 1000).trim() });
        req.destroy();
      };
      res.on("end", done);
      res.on("error", done);
      req.on("error", () => undefined);
    });
    ws.on("error", (err: NodeJS.ErrnoException) => settle({ ok: false, status: 0, body: err.message, code: err.code ?? "EUNKNOWN" }));
    // Listening from the start: the bridge's first frame can arrive in the same packet as the
    // handshake and be emitted (process.nextTick) before the caller's promise continuation runs.
    const link = wrap(ws);
    ws.once("open", () => settle({ ok: true, link }));
  });
}

function wrap(ws: WebSocketType): BridgeLink {
  let early: string[] | undefined = [];
  let onMessage: ((text: string) => void) | undefined;
  let closed: { code: number; reason: string } | undefined;
  const closeListeners: Array<(code: number, reason: string) => void> = [];
  ws.on("message", (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString("utf8") : data.toString();
    if (onMessage) onMessage(text);
    else early?.push(text);
  });
  ws.on("close", (code, reason) => {
    closed = { code, reason: reason.toString() };
    for (const fn of closeListeners) fn(closed.code, closed.reason);
  });
  return {
    send: (text) => ws.send(text),
    close: (code = CloseCode.normal, reason = "") => {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    // Not every WebSocket implementation `ws` is mapped to (Bun's) has pause/resume.
    pause: () => (typeof ws.pause === "function" ? ws.pause() : undefined),
    resume: () => (typeof ws.resume === "function" ? ws.resume() : undefined),
    onMessage: (fn) => {
      onMessage = fn;
      const pending = early ?? [];
      early = undefined;
      for (const text of pending) fn(text);
    },
    onClose: (fn) => {
      closeListeners.push(fn);
      if (closed) fn(closed.code, closed.reason);
    },
  };
}
