// Runtime.serve on Node: @hono/node-server v2 with a `ws` server for upgrades, plus the WebSocket
// policy the Runtime interface promises (4 MB frames, `mcp` subprotocol echoed, 30 s heartbeat).
import type { Server as HttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { WebSocket, WebSocketServer } from "ws";
import { BridgeError, errorMessage } from "../../src/errors.ts";
import { nodeErrorCode } from "../shared/errors.ts";
import type { FetchHandler, ServeOptions, Served } from "../../src/ports/net.ts";
import { CloseCode } from "../../src/wire.ts";
import { CLOSE_WAIT_MS, MAX_FRAME_BYTES } from "../shared/ws-policy.ts";

const KEEP_ALIVE_MS = 65_000;

interface NodeServeOptions {
  /** Heartbeat period; a client that misses two pongs in a row is terminated. */
  pingIntervalMs: number;
}

export function nodeServe(app: { fetch: FetchHandler }, opts: ServeOptions, nodeOpts: NodeServeOptions): Promise<Served> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: pickProtocol });
  const stopHeartbeat = startHeartbeat(wss, nodeOpts.pingIntervalMs);

  return new Promise((resolve, reject) => {
    const tls =
      opts.tls === undefined ? {} : { createServer: createHttpsServer, serverOptions: { cert: opts.tls.cert, key: opts.tls.key } };
    const server = serve(
      { fetch: app.fetch, hostname: opts.hostname, port: opts.port, websocket: { server: wss }, ...tls },
      (info: AddressInfo) => {
        server.off("error", onStartError);
        // Node's 5 s default closes an idle keep-alive socket while a busy client (one validating
        // a long tools/list on a loaded machine) still holds it as open and sends its next POST
        // on it, which then fails ("other side closed"); POSTs are not retried by clients.
        (server as HttpServer).keepAliveTimeout = KEEP_ALIVE_MS;
        resolve({
          port: info.port,
          hostname: opts.hostname,
          close: () => closeAll(server as HttpServer, wss, stopHeartbeat),
        });
      },
    );
    const onStartError = (err: unknown) => {
      stopHeartbeat();
      wss.close();
      const where = `${opts.hostname}:${opts.port}`;
      reject(
        nodeErrorCode(err) === "EADDRINUSE"
          ? new BridgeError("port_in_use", `port ${opts.port} is already in use on ${opts.hostname}`, { cause: err })
          : new BridgeError("startup_failed", `cannot listen on ${where}: ${errorMessage(err)}`, { cause: err }),
      );
    };
    server.once("error", onStartError);
  });
}

/**
 * Claude Code offers `Sec-WebSocket-Protocol: mcp` and fails a handshake that gets none back
 * (protocol.md A2); ws's default would echo whichever came first, so prefer `mcp` explicitly.
 */
function pickProtocol(offered: Set<string>): string | false {
  if (offered.has("mcp")) return "mcp";
  const first = offered.values().next();
  return first.done === true ? false : first.value;
}

/** Pings every client each period; two unanswered pings mean a dead peer (sleeping laptop, NAT drop). */
function startHeartbeat(wss: WebSocketServer, intervalMs: number): () => void {
  const missed = new WeakMap<WebSocket, number>();
  wss.on("connection", (ws: WebSocket) => {
    missed.set(ws, 0);
    ws.on("pong", () => missed.set(ws, 0));
  });
  const timer = setInterval(() => {
    for (const ws of wss.clients) {
      const count = missed.get(ws) ?? 0;
      if (count >= 2) {
        ws.terminate();
        continue;
      }
      if (ws.readyState !== WebSocket.OPEN) continue;
      missed.set(ws, count + 1);
      ws.ping();
    }
  }, intervalMs);
  // The heartbeat alone must not keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}

async function closeAll(server: HttpServer, wss: WebSocketServer, stopHeartbeat: () => void): Promise<void> {
  stopHeartbeat();
  // Stop accepting first, so no client connects while the others are being said goodbye to.
  // Upgraded sockets are no longer the http server's, hence the wss steps below.
  const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  const clients = [...wss.clients];
  const closed = clients.map((ws) => new Promise<void>((resolve) => ws.once("close", () => resolve())));
  for (const ws of clients) ws.close(CloseCode.goingAway, "server shutting down");
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
  for (const ws of wss.clients) ws.terminate();
  server.closeAllConnections();
  await listenerClosed;
  wss.close();
}
