// The HTTP surface: one Hono app serving the Claude Code WebSocket, Streamable HTTP at /mcp,
// /health and /ping, and with remote access the OAuth routes. Runtime-agnostic: every runtime
// serves `app.fetch` unchanged.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { Runtime } from "./ports/runtime.ts";
import type { Logger } from "./log.ts";
import type { SessionStore } from "./mcp/sessions/session-store.ts";
import { isAllowedHost, isAllowedHttpOrigin, type HostPolicy } from "./security/auth/host-origin.ts";
import { bearerToken, tokensEqual } from "./security/auth/tokens.ts";
import { writeToolCalled } from "./security/auth/oauth/read-only-calls.ts";
import type { RemoteAccess } from "./security/auth/oauth/remote-access.ts";
import type { Refusal } from "./security/auth/oauth/resource-guard.ts";
import { rpcErrorResponse } from "./transports/http/responses.ts";
import type { StreamableHttpTransport } from "./transports/http/streamable-http.ts";
import { logRefusals } from "./transports/refusal-log.ts";
import type { ExtensionClient } from "./extension/extension-client.ts";
import type { ToolRegistry } from "./tools/platform/registry.ts";
import { claudeCodeSocket } from "./transports/ws/claude-code-socket.ts";
import { extensionSocket } from "./transports/ws/extension-socket.ts";
import type { IdeLinkHub } from "./transports/ws/ide-link-hub.ts";
import { PACKAGE_VERSION } from "./version.ts";
import type { LazyDashboard } from "./dashboard/lazy-routes.ts";
import { notifyHandler } from "./transports/http/notify-route.ts";

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
  /** /dashboard, /metrics, /ready and /stream (src/dashboard/), loaded on their first request. */
  dashboard?: LazyDashboard;
  /** POST /notify: Claude Code's hook events for the automation hooks (src/transports/http/notify-route.ts). */
  notify?: Parameters<typeof notifyHandler>[0]["notify"];
  /** OAuth 2.1 for clients on other machines (src/config/remote.ts); without it /mcp takes the bridge token only. */
  remote?: RemoteAppOptions;
}

interface RemoteAppOptions {
  /** Resolves once remote access is set up (the TLS port may be known only after listening). */
  access(): Promise<RemoteAccess>;
  /** The issuer URL's path ("" or "/prefix"), which a proxy may or may not have taken off. */
  prefix: string;
  corsOrigins: readonly string[];
  /** The sessions of tokens with only mcp:read: their tools/list and tools/call know the read-only tools alone. */
  readOnlyHttp: Pick<StreamableHttpTransport, "handle">;
  /** Whether a tool needs mcp:write (it exists and is not read-only). */
  requiresWrite(tool: string): boolean;
}

export function createApp(opts: AppOptions): Hono {
  const remote = opts.remote;
  const app = new Hono(remote?.prefix ? { getPath: withoutPrefix(remote.prefix) } : {});
  app.use("*", logRefusals(opts.logger));
  if (opts.extension !== undefined) app.use("*", extensionSocket({ ...opts, client: opts.extension }));
  app.use("*", claudeCodeSocket({ ...opts, store: opts.sockets, onCountChange: opts.onWebSocketCount }));
  app.use("*", rejectRebinding(opts.hostPolicy));
  if (remote && remote.corsOrigins.length > 0) app.use("*", corsFor(remote.corsOrigins));
  app.get("/ping", (c) => c.json({ ok: true, v: PACKAGE_VERSION }));
  app.use("/health", requireBearer(opts.token));
  app.get("/health", (c) => c.json(opts.health()));
  if (remote) {
    const oauth = lazyOauthRoutes(remote, (message, data) => opts.logger.error(message, data));
    for (const path of OAUTH_PATHS) app.all(path, (c) => oauth(c.req.raw, c.env));
    app.all("/mcp", (c) => remoteMcp(remote, { http: opts.http, request: c.req.raw }));
  } else {
    app.use("/mcp", requireBearer(opts.token));
    app.all("/mcp", (c) => opts.http.handle(c.req.raw));
  }
  if (opts.dashboard) app.route("/", opts.dashboard.routes);
  if (opts.notify) app.post("/notify", notifyHandler({ token: opts.token, notify: opts.notify }));
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
  app.notFound(notFoundJson);
  app.onError((err, c) => {
    opts.logger.error("unhandled error in HTTP handler", { path: c.req.path, error: String(err) });
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

/** Where the OAuth routes (src/security/auth/oauth/routes.ts) live. */
const OAUTH_PATHS = ["/.well-known/*", "/oauth/*"] as const;

/**
 * The OAuth routes, loaded on their first request: they import jose, which a bridge without remote
 * access never needs and which costs a start-up tens of milliseconds. They route as they did when
 * mounted on the app itself: by the same path (the issuer's prefix taken off), and a path they do
 * not serve gets the app's 404.
 */
function lazyOauthRoutes(
  remote: RemoteAppOptions,
  onError: (message: string, data: Record<string, unknown>) => void,
): (request: Request, env: unknown) => Promise<Response> {
  let loaded: Promise<Hono> | undefined;
  const load = () =>
    (loaded ??= import("./security/auth/oauth/routes.ts").then(({ oauthRoutes }) => {
      const routes = new Hono(remote.prefix ? { getPath: withoutPrefix(remote.prefix) } : {});
      routes.route("/", oauthRoutes({ remote: remote.access, onError }));
      routes.notFound(notFoundJson);
      return routes;
    }));
  return async (request, env) => (await load()).fetch(request, env);
}

const notFoundJson = (c: Context) => c.json({ error: "not found", path: c.req.path }, 404);

/**
 * /mcp with remote access: the bridge token or an access token for this resource. A token with only
 * mcp:read reaches the read-only sessions, and calling any other tool is a 403 insufficient_scope.
 */
async function remoteMcp(
  remote: RemoteAppOptions,
  opts: { http: Pick<StreamableHttpTransport, "handle">; request: Request },
): Promise<Response> {
  const access = await remote.access();
  const verdict = await access.guard.check(opts.request.headers.get("authorization"));
  if (!verdict.ok) return refusalResponse(verdict);
  if (verdict.principal.access === "write") return opts.http.handle(opts.request);
  const tool = await writeToolCalled(opts.request, remote.requiresWrite);
  if (tool !== undefined)
    return refusalResponse(access.guard.insufficientScope(`${tool} is not a read-only tool: it needs the mcp:write scope`));
  return remote.readOnlyHttp.handle(opts.request);
}

function refusalResponse(refusal: Refusal): Response {
  return rpcErrorResponse(
    refusal.status,
    { code: -32000, message: refusal.message },
    { headers: { "www-authenticate": refusal.challenge } },
  );
}

/** Routes by the path without the issuer's prefix, so a proxy may pass https://host/prefix/mcp on as /prefix/mcp or as /mcp. */
function withoutPrefix(prefix: string): (request: Request) => string {
  return (request) => {
    const path = new URL(request.url).pathname;
    return path === prefix || path.startsWith(`${prefix}/`) ? path.slice(prefix.length) || "/" : path;
  };
}

/** CORS for the --cors-origin origins only; others get no CORS headers (and 403 from rejectRebinding). */
function corsFor(origins: readonly string[]): MiddlewareHandler {
  return cors({
    origin: [...origins],
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["authorization", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"],
    exposeHeaders: ["mcp-session-id", "www-authenticate"],
    maxAge: 600,
  });
}

/** 403 for a non-loopback Host or a foreign Origin (MCP Streamable HTTP "Security Warning"). */
function rejectRebinding(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (!isAllowedHost(c.req.header("host"), policy)) {
      return rpcErrorResponse(403, { code: -32000, message: "Forbidden: Host header is not allowed (DNS rebinding protection)" });
    }
    if (!isAllowedHttpOrigin(c.req.header("origin"), policy)) {
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
