// The HTTP surface: one Hono app serving the Claude Code WebSocket, Streamable HTTP at /mcp,
// /health and /ping. Runtime-agnostic: every runtime serves `app.fetch` unchanged.
import { Hono, type MiddlewareHandler } from "hono";
import type { Runtime } from "./ports/runtime.ts";
import type { Logger } from "./log.ts";
import type { SessionStore } from "./mcp/sessions/session-store.ts";
import { isAllowedHost, isAllowedHttpOrigin, type HostPolicy } from "./security/auth/host-origin.ts";
import { bearerToken, tokensEqual } from "./security/auth/tokens.ts";
import { rpcErrorResponse } from "./transports/http/responses.ts";
import type { StreamableHttpTransport } from "./transports/http/streamable-http.ts";
import { logRefusals } from "./transports/refusal-log.ts";
import type { ExtensionClient } from "./extension/extension-client.ts";
import type { ToolRegistry } from "./tools/platform/registry.ts";
import { claudeCodeSocket } from "./transports/ws/claude-code-socket.ts";
import { extensionSocket } from "./transports/ws/extension-socket.ts";
import type { IdeLinkHub } from "./transports/ws/ide-link-hub.ts";
import { PACKAGE_VERSION } from "./version.ts";

interface AppOptions {
  runtime: Pick<Runtime, "upgradeWebSocket" | "webSocketInfo">;
  token: string;
  hostPolicy: HostPolicy;
  http: StreamableHttpTransport;
  sockets: SessionStore;
  /** The VS Code extension's link (its socket is /extension); without it nothing accepts one. */
  extension?: ExtensionClient;
  /** What Claude Code's IDE-link sessions serve (src/transports/ws/claude-code-socket.ts). */
  ideLink?: { registry: ToolRegistry; hub: IdeLinkHub };
  health(): Record<string, unknown>;
  logger: Logger;
  onWebSocketCount?(open: number): void;
  /**
   * `POST /shutdown` with the token (`claude-ide-bridge stop`): called after the answer is sent.
   * Without it the route does not exist.
   */
  onShutdownRequest?(): void;
}

export function createApp(opts: AppOptions): Hono {
  const app = new Hono();
  app.use("*", logRefusals(opts.logger));
  if (opts.extension !== undefined) app.use("*", extensionSocket({ ...opts, client: opts.extension }));
  app.use("*", claudeCodeSocket({ ...opts, store: opts.sockets, onCountChange: opts.onWebSocketCount }));
  app.use("*", rejectRebinding(opts.hostPolicy));
  app.get("/ping", (c) => c.json({ ok: true, v: PACKAGE_VERSION }));
  app.use("/health", requireBearer(opts.token));
  app.get("/health", (c) => c.json(opts.health()));
  app.use("/mcp", requireBearer(opts.token));
  app.all("/mcp", (c) => opts.http.handle(c.req.raw));
  const onShutdown = opts.onShutdownRequest;
  if (onShutdown) {
    app.use("/shutdown", requireBearer(opts.token));
    app.post("/shutdown", (c) => {
      opts.logger.info("stopping: asked to by POST /shutdown (claude-ide-bridge stop)");
      // After this handler's answer has gone out; stopping closes the listener.
      setTimeout(onShutdown, 0);
      return c.json({ ok: true, stopping: true }, 202);
    });
  }
  app.notFound((c) => c.json({ error: "not found", path: c.req.path }, 404));
  app.onError((err, c) => {
    opts.logger.error("unhandled error in HTTP handler", { path: c.req.path, error: String(err) });
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

/** 403 for a non-loopback Host or a foreign Origin (MCP Streamable HTTP "Security Warning"). */
function rejectRebinding(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (!isAllowedHost(c.req.header("host"), policy)) {
      return rpcErrorResponse(403, { code: -32000, message: "Forbidden: Host header is not allowed (DNS rebinding protection)" });
    }
    if (!isAllowedHttpOrigin(c.req.header("origin"))) {
      return rpcErrorResponse(403, { code: -32000, message: "Forbidden: Origin is not allowed" });
    }
    return next();
  };
}

function requireBearer(token: string): MiddlewareHandler {
  return async (c, next) => {
    const given = bearerToken(c.req.header("authorization"));
    if (!tokensEqual(given, token)) {
      const why = given === undefined ? "missing bearer token" : "invalid bearer token";
      return rpcErrorResponse(
        401,
        { code: -32000, message: `Unauthorized: ${why}; send Authorization: Bearer <token> (claude-ide-bridge print-token)` },
        {
          headers: { "www-authenticate": `Bearer realm="claude-ide-bridge"` },
        },
      );
    }
    return next();
  };
}
