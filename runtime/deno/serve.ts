// Runtime.serve and the WebSocket upgrade on Deno: Deno.serve with hono/deno's `upgradeWebSocket`.
// Deno pings idle sockets itself (`idleTimeout`); this file adds what Deno does not do: the 4 MB
// frame limit (Deno's own is 64 MB), `mcp` preferred over the first offered subprotocol, and a
// close() that waits (briefly) for each upgraded socket's 1001 goodbye, as on Node and Bun.
import { upgradeWebSocket as honoUpgradeWebSocket } from "hono/deno";
import { defineWebSocketHelper, type UpgradeWebSocket, type WSEvents } from "hono/ws";
import { BridgeError, errorMessage } from "../../src/errors.ts";
import type { FetchHandler, ServeOptions, Served, WebSocketInfo } from "../../src/ports/net.ts";
import { CloseCode } from "../../src/wire.ts";
import { closeWithGoingAway, frameBytes, idleTimeoutSeconds, MAX_FRAME_BYTES, preferredSubprotocol } from "../shared/ws-policy.ts";

/** Which server's socket set an upgraded request belongs to (set by the fetch wrapper below). */
const socketsOfRequest = new WeakMap<Request, Set<WebSocket>>();

export const denoWebSocketInfo: WebSocketInfo = {
  // `raw` is Deno's WebSocket under hono/deno.
  bufferedAmount: (ws) => (ws.raw instanceof WebSocket ? ws.raw.bufferedAmount : 0),
};

export function createDenoUpgradeWebSocket(pingIntervalMs: number): UpgradeWebSocket<WebSocket, Deno.UpgradeWebSocketOptions> {
  const idleTimeout = idleTimeoutSeconds(pingIntervalMs);
  return defineWebSocketHelper<WebSocket, Deno.UpgradeWebSocketOptions>(async (c, events, options) => {
    // hono/deno's own test; its 3-argument form throws where the middleware form would call next().
    if (c.req.header("upgrade") !== "websocket") return undefined;
    const offered = c.req.header("sec-websocket-protocol");
    const protocol = preferredSubprotocol(offered);
    try {
      return await honoUpgradeWebSocket(c, withPolicy(events, socketsOfRequest.get(c.req.raw)), {
        idleTimeout,
        ...(protocol === undefined ? {} : { protocol }),
        ...options,
      });
    } catch (err) {
      // Deno splits the offered list on ", " only, so "a,b" (valid per RFC 6455 and what the `ws`
      // client sends) names no protocol it can accept. Say so instead of a bare 500.
      if (offered?.includes(",") !== true) throw err;
      return new Response(
        `Bad WebSocket upgrade request: list subprotocols separated by ", " on this runtime (Deno), or offer only "mcp"; got "${offered}"`,
        { status: 400 },
      );
    }
  });
}

function withPolicy(events: WSEvents<WebSocket>, sockets: Set<WebSocket> | undefined): WSEvents<WebSocket> {
  return {
    ...events,
    onOpen(evt, ws) {
      if (ws.raw !== undefined) sockets?.add(ws.raw);
      events.onOpen?.(evt, ws);
    },
    onMessage(evt, ws) {
      // The message is already in memory (Deno stops at 64 MB), but it goes no further than here.
      if (frameBytes(evt.data) > MAX_FRAME_BYTES) {
        ws.close(CloseCode.messageTooBig, "message too big");
        return;
      }
      events.onMessage?.(evt, ws);
    },
    onClose(evt, ws) {
      if (ws.raw !== undefined) sockets?.delete(ws.raw);
      events.onClose?.(evt, ws);
    },
  };
}

export function denoServe(app: { fetch: FetchHandler }, opts: ServeOptions): Promise<Served> {
  const sockets = new Set<WebSocket>();
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      {
        hostname: opts.hostname,
        port: opts.port,
        // Without onListen Deno prints "Listening on ..." to stdout, which belongs to the stdio shim.
        onListen: () => {},
        ...(opts.tls === undefined ? {} : { cert: opts.tls.cert, key: opts.tls.key }),
      },
      (request, info) => {
        socketsOfRequest.set(request, sockets);
        return app.fetch(request, info);
      },
    );
  } catch (err) {
    const where = `${opts.hostname}:${opts.port}`;
    return Promise.reject(
      err instanceof Deno.errors.AddrInUse
        ? new BridgeError("port_in_use", `port ${opts.port} is already in use on ${opts.hostname}`, { cause: err })
        : new BridgeError("startup_failed", `cannot listen on ${where}: ${errorMessage(err)}`, { cause: err }),
    );
  }
  let closing: Promise<void> | undefined;
  return Promise.resolve({
    port: server.addr.port,
    hostname: opts.hostname,
    close: () =>
      (closing ??= (async () => {
        // Stops accepting at once (Deno closes the upgraded sockets it knows of with 1001 too),
        // so no client connects while the others are being said goodbye to.
        const finished = server.shutdown();
        await closeWithGoingAway(sockets, (ws) => ws.close(CloseCode.goingAway, "server shutting down"));
        await finished;
      })()),
  });
}
