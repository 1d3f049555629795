// The dashboard's routes in-process (app.request): /metrics read back by a strict Prometheus
// parser, the login that works once, 401 without the cookie, the CSP, /ready, /stream's limit.
import { describe, expect, it } from "vitest";
import { ActivityLog } from "../../../src/capabilities/activity/activity-log.ts";
import type { BridgeMonitor } from "../../../src/capabilities/activity/bridge-monitor.ts";
import { MAX_SUBSCRIBERS } from "../../../src/dashboard/event-stream.ts";
import { Hono } from "hono";
import { lazyDashboard } from "../../../src/dashboard/lazy-routes.ts";
import { createDashboard } from "../../../src/dashboard/routes.ts";
import { parsePrometheusText } from "./prometheus-text.ts";

const TOKEN = "dashboard-test-token-0123456789";

function setup(opts: { ready?: boolean } = {}) {
  const log = new ActivityLog({ toolsetOf: () => "workspace", clientOf: () => "claude-code" });
  const monitor: BridgeMonitor = {
    activity: log,
    identity: () => ({ version: "9.9.9", runtime: "node", workspace: "/w", port: 4242, startedAt: Date.now() - 60_000, tools: 3 }),
    sessions: () => ({
      list: [
        { id: "session-one", transport: "http", client: "claude-code", openedAt: Date.now() },
        { id: "socket-in-grace", transport: "websocket", client: "claude-code", openedAt: Date.now(), graceEndsAt: Date.now() + 90_000 },
      ],
      websocket: { active: 1, inGrace: 2, graceMs: 1 },
      http: 1,
    }),
    doctor: undefined,
  };
  const lsp = {
    status: () => ({
      servers: [
        {
          id: "typescript",
          root: '/w/"odd"\\dir',
          state: "running" as const,
          command: "x",
          from: "PATH" as const,
          openDocuments: 1,
          busyWith: [],
          crashes: 1,
          memoryBytes: 1024,
        },
      ],
      limits: { maxServers: 8, maxMemoryBytes: 1 },
      watchedDirectories: 0,
      watcherTruncated: false,
    }),
  };
  const extension = { status: () => ({ state: "disconnected" as const, breaker: "closed" as const, pending: 0 }) };
  const options = { token: TOKEN, monitor, extension, lsp, ready: () => opts.ready ?? true };
  const dashboard = createDashboard(options);
  const request = (path: string, init: RequestInit = {}) => dashboard.app.request(`http://127.0.0.1:4242${path}`, init);
  return { log, dashboard, request, options };
}

async function login(request: ReturnType<typeof setup>["request"]): Promise<string> {
  const link = (await (
    await request("/dashboard/login-link", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })
  ).json()) as { path: string };
  const response = await request(link.path);
  expect(response.status).toBe(303);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

describe("/metrics", () => {
  it("is valid Prometheus text with calls, errors, histograms, sessions, language servers and the extension", async () => {
    const { log, request } = setup();
    log.recordCall({ tool: "readFile", session: "s", durationMs: 7, outcome: "ok" });
    log.recordCall({ tool: "readFile", session: "s", durationMs: 700, outcome: "file_not_found" });
    log.recordCall({ tool: "findFiles", session: "s", durationMs: 40_000, outcome: "ok" });
    log.append({ source: "limits", event: "rate.limited" });
    expect((await request("/metrics")).status).toBe(401);
    const response = await request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const families = parsePrometheusText(await response.text());
    const value = (family: string, name: string, labels: Record<string, string>) =>
      families.get(family)?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value("claude_ide_bridge_tool_calls_total", "claude_ide_bridge_tool_calls_total", { tool: "readFile" })).toBe(2);
    expect(value("claude_ide_bridge_tool_errors_total", "claude_ide_bridge_tool_errors_total", { tool: "readFile" })).toBe(1);
    const h = "claude_ide_bridge_tool_duration_seconds";
    expect(value(h, `${h}_bucket`, { tool: "readFile", le: "0.01" })).toBe(1);
    expect(value(h, `${h}_bucket`, { tool: "readFile", le: "1" })).toBe(2);
    expect(value(h, `${h}_bucket`, { tool: "findFiles", le: "30" })).toBe(0);
    expect(value(h, `${h}_bucket`, { tool: "findFiles", le: "+Inf" })).toBe(1);
    expect(value(h, `${h}_sum`, { tool: "readFile" })).toBeCloseTo(0.7 + 0.007);
    expect(value("claude_ide_bridge_sessions", "claude_ide_bridge_sessions", { transport: "websocket", state: "grace" })).toBe(2);
    expect(value("claude_ide_bridge_language_servers", "claude_ide_bridge_language_servers", { state: "running" })).toBe(1);
    // The label value with a quote and a backslash came back intact through the escapes.
    expect(value("claude_ide_bridge_language_server_crashes", "claude_ide_bridge_language_server_crashes", { root: '/w/"odd"\\dir' })).toBe(
      1,
    );
    expect(value("claude_ide_bridge_extension_connected", "claude_ide_bridge_extension_connected", {})).toBe(0);
    expect(value("claude_ide_bridge_extension_breaker", "claude_ide_bridge_extension_breaker", { state: "closed" })).toBe(1);
    expect(value("claude_ide_bridge_events_total", "claude_ide_bridge_events_total", { event: "rate.limited" })).toBe(1);
    expect(families.get("claude_ide_bridge_health_score")?.type).toBe("gauge");
  });

  it("the test's parser refuses broken text, so the test above can fail", () => {
    expect(() => parsePrometheusText('# TYPE x counter\nx{a="1} 1\n')).toThrow();
    expect(() => parsePrometheusText("x 1\n")).toThrow(/without a TYPE/);
    expect(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n')).toThrow(
      /cumulative/,
    );
  });
});

describe("the dashboard's access", () => {
  it("answers 401 without the cookie, and the one-time link works once", async () => {
    const { request } = setup();
    expect((await request("/dashboard")).status).toBe(401);
    expect((await request("/dashboard/data")).status).toBe(401);
    expect((await request("/stream")).status).toBe(401);
    expect((await request("/dashboard/login-link", { method: "POST" })).status).toBe(401);
    const link = (await (
      await request("/dashboard/login-link", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { path: string };
    const first = await request(link.path);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("../dashboard");
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect((await request(link.path)).status).toBe(401);
    const cookie = setCookie.split(";")[0] ?? "";
    const page = await request("/dashboard", { headers: { cookie } });
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
    expect(html).toContain("Recent activity");
    // Each session's state: the one whose socket closed waits for its client, with when it ends.
    expect(html).toMatch(/<td>connected<\/td>/);
    // 90 s from when the fixture was built, read against the page's own clock: a second either way.
    expect(html).toMatch(/<td>in grace until \d\d:\d\d:\d\d \((89|90|91) s left\)<\/td>/);
    expect(html).not.toContain(TOKEN);
    expect(html).not.toMatch(/<script>|style="/);
    expect((await request("/dashboard", { headers: { cookie: "cib_dashboard=forged" } })).status).toBe(401);
  });

  it("serves /dashboard/data with the bearer token or the cookie", async () => {
    const { request, log } = setup();
    log.recordCall({ tool: "readFile", session: "s", durationMs: 3, outcome: "ok" });
    const data = (await (await request("/dashboard/data", { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      bridge: { version: string };
      health: { score: number; signals: unknown[] };
      recent: { tool?: string }[];
    };
    expect(data.bridge.version).toBe("9.9.9");
    expect(data.health.signals).toHaveLength(5);
    expect(data.recent[0]?.tool).toBe("readFile");
    const cookie = await login(setup().request);
    expect(cookie).toMatch(/^cib_dashboard=/);
  });
});

describe("/ready and /stream", () => {
  it("/ready says 200 or 503 without auth", async () => {
    expect((await setup().request("/ready")).status).toBe(200);
    expect((await setup({ ready: false }).request("/ready")).status).toBe(503);
  });

  it("streams new entries as SSE, replays after Last-Event-ID, and refuses the 21st subscriber", async () => {
    const { log, request, dashboard } = setup();
    const auth = { authorization: `Bearer ${TOKEN}` };
    log.recordCall({ tool: "before", session: "s", durationMs: 1, outcome: "ok" });
    const response = await request("/stream", { headers: { ...auth, "last-event-id": "0" } });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    log.recordCall({ tool: "readFile", session: "s", durationMs: 1, outcome: "ok" });
    let text = "";
    while (!text.includes('"tool":"readFile"')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toContain("id: 2\nevent: activity\n");
    const others = await Promise.all(Array.from({ length: MAX_SUBSCRIBERS - 1 }, () => request("/stream", { headers: auth })));
    expect(others.every((r) => r.status === 200)).toBe(true);
    expect((await request("/stream", { headers: auth })).status).toBe(503);
    await reader.cancel();
    expect((await request("/stream", { headers: auth })).status).toBe(200);
    dashboard.close();
  });

  it("skips events for a subscriber that does not read, then tells it to resync", async () => {
    const { log, request, dashboard } = setup();
    const response = await request("/stream", { headers: { authorization: `Bearer ${TOKEN}` } });
    for (let i = 0; i < 200; i++) log.recordCall({ tool: "flood", session: "s", durationMs: 1, outcome: "ok" });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    let events = 0;
    while (events < 60) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const part = new TextDecoder().decode(chunk.value);
      text += part;
      events += (part.match(/event: activity/g) ?? []).length;
    }
    // Bounded: the 200 events did not all queue up.
    expect(events).toBeLessThan(200);
    log.recordCall({ tool: "after", session: "s", durationMs: 1, outcome: "ok" });
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
      if (text.includes('"tool":"after"')) break;
    }
    expect(text).toMatch(/event: resync\ndata: \{"skipped":\d+\}/);
    await reader.cancel();
    dashboard.close();
  });
});

describe("the lazy routes behind an --issuer-url with a path prefix", () => {
  // As src/app.ts routes with --issuer-url https://host/bridge: by the path without the prefix, so a
  // proxy may pass /bridge/dashboard on as it is or as /dashboard.
  const PREFIX = "/bridge";
  function prefixedApp() {
    const lazy = lazyDashboard(setup().options);
    const app = new Hono({
      getPath: (request) => {
        const path = new URL(request.url).pathname;
        return path === PREFIX || path.startsWith(`${PREFIX}/`) ? path.slice(PREFIX.length) || "/" : path;
      },
    });
    app.route("/", lazy.routes);
    return { lazy, request: (path: string, init: RequestInit = {}) => app.request(`https://proxy.example${path}`, init) };
  }

  it("serves every dashboard path with the prefix kept and with it taken off, and the login leads under the prefix", async () => {
    const { lazy, request } = prefixedApp();
    for (const base of [PREFIX, ""]) {
      expect((await request(`${base}/ready`)).status).toBe(200);
      expect((await request(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect((await request(`${base}/dashboard/app.css`)).headers.get("content-type")).toMatch(/^text\/css/);
      const link = (await (
        await request(`${base}/dashboard/login-link`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as { path: string };
      const login = await request(`${base}${link.path}`);
      expect(login.status).toBe(303);
      const next = new URL(login.headers.get("location") ?? "", `https://proxy.example${base}${link.path}`);
      expect(next.pathname).toBe(`${base}/dashboard`);
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const page = await request(next.pathname, { headers: { cookie } });
      expect(page.status).toBe(200);
      // What the page loads resolves under the same prefix, so the browser stays behind the proxy.
      const html = await page.text();
      const pageUrl = `https://proxy.example${next.pathname}`;
      for (const ref of [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] ?? ""))
        expect(new URL(ref, pageUrl).pathname.startsWith(`${base}/dashboard/`)).toBe(true);
      const data = await request(`${base}/dashboard/data`, { headers: { cookie } });
      expect(((await data.json()) as { bridge: { version: string } }).bridge.version).toBe("9.9.9");
    }
    // A path outside the prefix and the dashboard is not the dashboard's.
    expect((await request("/other/dashboard")).status).toBe(404);
    lazy.close();
  });
});
