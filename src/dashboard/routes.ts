// The dashboard's HTTP routes, loaded on the first request to one of them (lazy-routes.ts):
// /ready (no auth: 200 or 503), /metrics (bearer token or the dashboard cookie), the page and
// its live parts (cookie; the JSON and /stream also take the bearer token), and the one-time login.
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import type { BridgeMonitor } from "../capabilities/activity/bridge-monitor.ts";
import type { ExtensionLink } from "../capabilities/context.ts";
import type { LspService } from "../lsp/lsp-service.ts";
import { bearerToken, tokensEqual } from "../security/auth/tokens.ts";
import { bridgeSnapshot } from "../services/activity/bridge-snapshot.ts";
import { APP_CSS, APP_JS } from "./assets.ts";
import { COOKIE_NAME, DashboardAuth } from "./dashboard-auth.ts";
import { EventStream } from "./event-stream.ts";
import { renderMetrics } from "./metrics.ts";
import { dashboardPage, livePanels } from "./page.ts";

export interface DashboardOptions {
  token: string;
  monitor: BridgeMonitor;
  extension: Pick<ExtensionLink, "status">;
  lsp: Pick<LspService, "status">;
  /** Serving, and not stopping. */
  ready(): boolean;
}

/** No inline script or style, nothing from elsewhere, no framing, no form posts. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PAGE_HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
};

export interface Dashboard {
  readonly app: Hono;
  close(): void;
}

export function createDashboard(opts: DashboardOptions): Dashboard {
  const auth = new DashboardAuth();
  const stream = new EventStream(opts.monitor.activity);
  const snapshot = () => bridgeSnapshot({ monitor: opts.monitor, extension: opts.extension, lsp: opts.lsp }, { now: Date.now() });
  const hasBearer = (c: Context) => tokensEqual(bearerToken(c.req.header("authorization")), opts.token);
  const hasCookie = (c: Context) => auth.allows(getCookie(c, COOKIE_NAME));
  const signedOut = (c: Context) =>
    c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in needed</title></head><body><h1>Sign in needed</h1><p>Run <code>claude-ide-bridge dashboard</code> in the workspace for a one-time link (each link works once, for 2 minutes).</p></body></html>`,
      401,
      { ...PAGE_HEADERS, "www-authenticate": `Bearer realm="claude-ide-bridge"` },
    );

  const app = new Hono();
  app.get("/ready", (c) => (opts.ready() ? c.json({ ready: true }) : c.json({ ready: false }, 503)));
  app.get("/metrics", (c) => {
    if (!hasBearer(c) && !hasCookie(c))
      return c.text("Unauthorized: send Authorization: Bearer <token> (claude-ide-bridge print-token)\n", 401);
    return c.body(renderMetrics(opts.monitor, snapshot()), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
    });
  });
  app.post("/dashboard/login-link", (c) => {
    if (!hasBearer(c)) return c.json({ error: "Unauthorized: the bridge token is needed (claude-ide-bridge dashboard sends it)" }, 401);
    return c.json({ path: `/dashboard/login?code=${auth.issueCode()}`, expiresInSeconds: 120 });
  });
  app.get("/dashboard/login", (c) => {
    const cookie = auth.redeem(c.req.query("code"));
    if (cookie === undefined) return signedOut(c);
    const secure = new URL(c.req.url).protocol === "https:";
    return c.body(null, 303, {
      // Relative: behind a proxy with a path prefix, /prefix/dashboard/login leads to /prefix/dashboard.
      location: "../dashboard",
      "set-cookie": auth.setCookieHeader(cookie, { secure }),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
  });
  app.get("/dashboard/app.js", (c) =>
    c.body(APP_JS, 200, { "content-type": "text/javascript; charset=utf-8", "x-content-type-options": "nosniff" }),
  );
  app.get("/dashboard/icon.svg", (c) =>
    c.body('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5cad"/></svg>', 200, {
      "content-type": "image/svg+xml",
    }),
  );
  app.get("/dashboard/app.css", (c) =>
    c.body(APP_CSS, 200, { "content-type": "text/css; charset=utf-8", "x-content-type-options": "nosniff" }),
  );
  app.get("/dashboard", async (c) => {
    if (!hasCookie(c)) return signedOut(c);
    return c.html(`<!doctype html>${await dashboardPage(snapshot()).toString()}`, 200, PAGE_HEADERS);
  });
  app.get("/dashboard/panels", async (c) => {
    if (!hasCookie(c)) return signedOut(c);
    return c.html(await livePanels(snapshot()).toString(), 200, PAGE_HEADERS);
  });
  app.get("/dashboard/data", (c) => {
    if (!hasBearer(c) && !hasCookie(c)) return c.json({ error: "Unauthorized: the dashboard cookie or the bridge token is needed" }, 401);
    return c.json(snapshot(), 200, { "cache-control": "no-store" });
  });
  app.get("/stream", (c) => {
    if (!hasBearer(c) && !hasCookie(c)) return c.json({ error: "Unauthorized: the dashboard cookie or the bridge token is needed" }, 401);
    return stream.open(c.req.header("last-event-id"));
  });
  return { app, close: () => stream.close() };
}
