// Mounts the dashboard's paths without loading the dashboard: the first request to one of them
// imports routes.ts (pages, charts, /metrics), so the bridge's start-up never pays for it. The
// dashboard's own app routes by the path the bridge's app routed by, which is the URL's path
// without the --issuer-url prefix when a proxy passes https://host/prefix/dashboard on unchanged.
import { Hono } from "hono";
import type { Dashboard, DashboardOptions } from "./routes.ts";

export const DASHBOARD_PATHS = ["/ready", "/metrics", "/stream", "/dashboard", "/dashboard/*"] as const;

export interface LazyDashboard {
  readonly routes: Hono;
  /** Ends the live streams (the bridge stops). */
  close(): void;
}

export function lazyDashboard(opts: DashboardOptions): LazyDashboard {
  let loaded: Promise<Dashboard> | undefined;
  let closed = false;
  const load = () => (loaded ??= import("./routes.ts").then((m) => m.createDashboard(opts)));
  const routes = new Hono();
  for (const path of DASHBOARD_PATHS) routes.all(path, async (c) => (await load()).app.fetch(atPath(c.req.raw, c.req.path)));
  return {
    routes,
    close() {
      if (closed) return;
      closed = true;
      void loaded?.then((d) => d.close());
    },
  };
}

/** The request as it would arrive at `path` (same method, headers, body and abort signal). */
function atPath(request: Request, path: string): Request {
  const url = new URL(request.url);
  if (url.pathname === path) return request;
  url.pathname = path;
  return new Request(url, request);
}
