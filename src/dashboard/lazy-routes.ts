// Mounts the dashboard's paths without loading the dashboard: the first request to one of them
// imports routes.ts (pages, charts, /metrics), so the bridge's start-up never pays for it.
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
  for (const path of DASHBOARD_PATHS) routes.all(path, async (c) => (await load()).app.fetch(c.req.raw));
  return {
    routes,
    close() {
      if (closed) return;
      closed = true;
      void loaded?.then((d) => d.close());
    },
  };
}
