// Runtime.serve and the WebSocket upgrade on Bun: Bun.serve with hono/bun's `upgradeWebSocket`
// and `websocket` handler. Bun itself enforces the frame limit (1009 above 4 MB) and the
// heartbeat (`sendPings` + `idleTimeout`); this file adds the `mcp` subprotocol and a clean close.
import type { Server, ServerWebSocket } from "bun";
import { upgradeWebSocket, websocket, type BunWebSocketData } from "hono/bun";
import { BridgeError, errorMessage } from "../../src/errors.ts";
import { nodeErrorCode } from "../shared/errors.ts";
import type { FetchHandler, ServeOptions, Served, WebSocketInfo } from "../../src/ports/net.ts";
import { CloseCode } from "../../src/wire.ts";
import { closeWithGoingAway, idleTimeoutSeconds, MAX_FRAME_BYTES, preferredSubprotocol } from "../shared/ws-policy.ts";

export { upgradeWebSocket as bunUpgradeWebSocket };

type BunSocket = ServerWebSocket<BunWebSocketData>;

export const bunWebSocketInfo: WebSocketInfo = {
  // `raw` is Bun's ServerWebSocket under hono/bun.
  bufferedAmount: (ws) => {
    const raw: unknown = ws.raw;
    return typeof raw === "object" && raw !== null && "getBufferedAmount" in raw && typeof raw.getBufferedAmount === "function"
      ? Number(raw.getBufferedAmount())
      : 0;
  },
};

interface BunServeOptions {
  pingIntervalMs: number;
}

export async function bunServe(app: { fetch: FetchHandler }, opts: ServeOptions, bunOpts: BunServeOptions): Promise<Served> {
  const sockets = new Set<BunSocket>();
  // hono/bun finds the server as `c.env.server`; ours answers the upgrade with `mcp` when offered.
  let env: { server: Server<BunWebSocketData> } | undefined;
  let server: Server<BunWebSocketData>;
  try {
    server = Bun.serve<BunWebSocketData>({
      hostname: opts.hostname,
      port: opts.port,
      // Bun cuts a response idle for 10 s by default, which would end SSE streams and long tool
      // calls; Node has no such limit, and the MCP layer has its own timeouts and keepalives.
      idleTimeout: 0,
      // Bun's development mode answers uncaught errors with an HTML page holding the stack.
      development: false,
      // Outside development mode Bun sets SO_REUSEPORT unless told not to, and a second bridge
      // would then share the port instead of getting port_in_use.
      reusePort: false,
      ...(opts.tls === undefined ? {} : { tls: { cert: opts.tls.cert, key: opts.tls.key } }),
      fetch: (request, srv) => {
        env ??= { server: choosingSubprotocol(srv) };
        return app.fetch(request, env);
      },
      websocket: {
        open(ws) {
          sockets.add(ws);
          websocket.open(ws);
        },
        close(ws, code, reason) {
          sockets.delete(ws);
          websocket.close(ws, code, reason);
        },
        message: (ws, message) => websocket.message(ws, message),
        maxPayloadLength: MAX_FRAME_BYTES,
        idleTimeout: idleTimeoutSeconds(bunOpts.pingIntervalMs),
        sendPings: true,
      },
    });
  } catch (err) {
    const where = `${opts.hostname}:${opts.port}`;
    throw nodeErrorCode(err) === "EADDRINUSE"
      ? new BridgeError("port_in_use", `port ${opts.port} is already in use on ${opts.hostname}`, { cause: err })
      : new BridgeError("startup_failed", `cannot listen on ${where}: ${errorMessage(err)}`, { cause: err });
  }
  const port = server.port;
  if (port === undefined) throw new BridgeError("startup_failed", `Bun.serve bound no TCP port on ${opts.hostname}`);
  let closing: Promise<void> | undefined;
  return {
    port,
    hostname: opts.hostname,
    close: () =>
      (closing ??= (async () => {
        // Stop accepting first, so no client connects while the others are being said goodbye to.
        void server.stop(false);
        await closeWithGoingAway(sockets, (ws) => ws.close(CloseCode.goingAway, "server shutting down"));
        // true: also drop keep-alive connections and sockets that ignored the close.
        await server.stop(true);
      })()),
  };
}

/** The same server, except that `upgrade` answers `Sec-WebSocket-Protocol: mcp` when the client offered it. */
function choosingSubprotocol(server: Server<BunWebSocketData>): Server<BunWebSocketData> {
  const upgrade = (request: Request, options: { data: BunWebSocketData; headers?: Record<string, string> }): boolean => {
    const protocol = preferredSubprotocol(request.headers.get("sec-websocket-protocol"));
    if (protocol === undefined) return server.upgrade(request, options);
    return server.upgrade(request, { ...options, headers: { ...options.headers, "sec-websocket-protocol": protocol } });
  };
  return new Proxy(server, {
    get(target, prop) {
      if (prop === "upgrade") return upgrade;
      const value: unknown = Reflect.get(target, prop, target);
      // Bun's server methods need the real server as `this`.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
