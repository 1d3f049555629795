// The dashboard page, server-rendered with Hono's JSX (hono/jsx), written as `h(tag, props,
// ...children)` calls rather than TSX so that every runtime and tsconfig reads it as plain .ts (no
// build step). The live part (#live) is rendered again by /dashboard/panels and swapped in by
// app.js on each /stream event. Charts are inline SVG; no inline script or style (strict CSP).
import { jsx as h } from "hono/jsx";
import type { ActivityEntry } from "../capabilities/activity/activity-entry.ts";
import type { BridgeSnapshot } from "../services/activity/bridge-snapshot.ts";
import { charts } from "./charts.ts";

type Node = ReturnType<typeof h>;

export function dashboardPage(snap: BridgeSnapshot): Node {
  return h(
    "html",
    { lang: "en" },
    h(
      "head",
      {},
      h("meta", { charset: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("meta", { name: "color-scheme", content: "light dark" }),
      h("title", {}, "claude-ide-bridge dashboard"),
      h("link", { rel: "stylesheet", href: "dashboard/app.css" }),
      // Its own icon, so the browser does not ask for /favicon.ico (a 404 in the console).
      h("link", { rel: "icon", href: "dashboard/icon.svg", type: "image/svg+xml" }),
      h("script", { src: "dashboard/app.js", defer: true }),
    ),
    h(
      "body",
      {},
      h(
        "header",
        {},
        h("h1", {}, "claude-ide-bridge"),
        h("p", { id: "stream-status", role: "status", "aria-live": "polite" }, "Connecting…"),
      ),
      h(
        "main",
        {},
        h(
          "section",
          { "aria-labelledby": "filters-h", class: "filters" },
          h("h2", { id: "filters-h" }, "Filter recent activity"),
          h("label", { for: "filter-tool" }, "Tool"),
          h("input", { id: "filter-tool", type: "search", placeholder: "tool name", autocomplete: "off" }),
          h("label", { for: "filter-outcome" }, "Outcome"),
          h(
            "select",
            { id: "filter-outcome" },
            h("option", { value: "all" }, "all"),
            h("option", { value: "ok" }, "ok"),
            h("option", { value: "errors" }, "errors"),
          ),
          h("p", { id: "last-event", "aria-live": "polite" }, ""),
        ),
        h("div", { id: "live" }, livePanels(snap)),
      ),
    ),
  );
}

/** What changes: health, overview, charts and tables. */
export function livePanels(snap: BridgeSnapshot): Node {
  return h(
    "div",
    { class: "panels" },
    healthPanel(snap),
    overviewPanel(snap),
    charts(snap),
    table(
      "Sessions",
      ["Session", "Transport", "Client", "Opened", "State"],
      snap.sessions.list.map((s) => [
        short(s.id),
        s.transport,
        s.client ?? "—",
        time(s.openedAt),
        sessionState(s, snap.bridge.startedAt + snap.bridge.uptimeMs),
      ]),
    ),
    table(
      "Language servers",
      ["Server", "Root", "State", "Crashes", "Memory"],
      snap.languageServers.map((s) => [
        s.id,
        s.root,
        s.state,
        String(s.crashes),
        s.memoryBytes === null ? "—" : `${Math.round(s.memoryBytes / 1048576)} MiB`,
      ]),
    ),
    table(
      "Latency per tool",
      ["Tool", "Calls", "Errors", "p50 ms", "p95 ms", "p99 ms", "max ms"],
      snap.latency.tools.map((r) => [
        r.name,
        String(r.calls),
        String(r.errors),
        String(r.p50Ms),
        String(r.p95Ms),
        String(r.p99Ms),
        String(r.maxMs),
      ]),
    ),
    recentTable(snap.recent),
  );
}

function healthPanel(snap: BridgeSnapshot): Node {
  const { health } = snap;
  return h(
    "section",
    { "aria-labelledby": "health-h", class: `card health ${health.status}` },
    h("h2", { id: "health-h" }, "Health"),
    h(
      "p",
      { class: "score" },
      h("span", { id: "health-score" }, String(health.score)),
      " / 100 ",
      h("span", { class: "badge" }, health.status),
    ),
    h(
      "table",
      {},
      h("caption", {}, "What the score is made of"),
      h(
        "thead",
        {},
        h("tr", {}, h("th", { scope: "col" }, "Signal"), h("th", { scope: "col" }, "Measured"), h("th", { scope: "col" }, "Points off")),
      ),
      h(
        "tbody",
        {},
        ...health.signals.map((s) =>
          h("tr", {}, h("th", { scope: "row" }, s.name), h("td", {}, s.value), h("td", {}, `${s.penalty} of ${s.max}`)),
        ),
      ),
    ),
  );
}

function overviewPanel(snap: BridgeSnapshot): Node {
  const ext = snap.extension;
  const facts: [string, string][] = [
    ["Version", `${snap.bridge.version} on ${snap.bridge.runtime}`],
    ["Workspace", snap.bridge.workspace],
    ["Uptime", duration(snap.bridge.uptimeMs)],
    ["Sessions", `${snap.sessions.websocket.active} WebSocket, ${snap.sessions.websocket.inGrace} in grace, ${snap.sessions.http} HTTP`],
    ["VS Code extension", `${ext.state} (breaker ${ext.breaker})`],
    ["Calls kept", `${snap.latency.overall.calls} calls, ${snap.kept.entries} of ${snap.kept.capacity} entries`],
  ];
  return h(
    "section",
    { "aria-labelledby": "overview-h", class: "card" },
    h("h2", { id: "overview-h" }, "Overview"),
    h("dl", {}, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
  );
}

function recentTable(recent: readonly ActivityEntry[]): Node {
  return h(
    "section",
    { "aria-labelledby": "recent-h", class: "wide" },
    h("h2", { id: "recent-h" }, "Recent activity"),
    h(
      "div",
      { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": "recent-h" },
      h(
        "table",
        { id: "recent" },
        h("thead", {}, h("tr", {}, ...["Time", "What", "Session", "Duration", "Outcome"].map((c) => h("th", { scope: "col" }, c)))),
        h(
          "tbody",
          {},
          ...recent.map((e) =>
            e.kind === "call"
              ? h(
                  "tr",
                  { "data-tool": e.tool, "data-outcome": e.outcome, class: e.outcome === "ok" ? "" : "error" },
                  h("td", {}, time(e.at)),
                  h("td", {}, e.tool),
                  h("td", {}, `${short(e.session)}${e.client ? ` (${e.client})` : ""}`),
                  h("td", {}, `${e.durationMs} ms`),
                  h("td", {}, e.outcome),
                )
              : h(
                  "tr",
                  { "data-tool": "", "data-outcome": "", class: "event" },
                  h("td", {}, time(e.at)),
                  h("td", {}, e.event),
                  h("td", {}, typeof e.detail.session === "string" ? short(e.detail.session) : e.source),
                  h("td", {}, ""),
                  h(
                    "td",
                    {},
                    Object.entries(e.detail)
                      .filter(([k]) => k !== "session")
                      .map(([k, v]) => `${k}=${String(v)}`)
                      .join(" "),
                  ),
                ),
          ),
        ),
      ),
    ),
  );
}

function table(title: string, columns: readonly string[], rows: readonly string[][]): Node {
  const id = `${title.toLowerCase().replace(/[^a-z]+/g, "-")}h`;
  return h(
    "section",
    { "aria-labelledby": id, class: "wide" },
    h("h2", { id }, title),
    rows.length === 0
      ? h("p", { class: "empty" }, "None yet.")
      : h(
          "div",
          { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": id },
          h(
            "table",
            {},
            h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col" }, c)))),
            h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((cell) => h("td", {}, cell))))),
          ),
        ),
  );
}

function short(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** Connected, or waiting for its client to reattach, until when. */
function sessionState(session: { graceEndsAt?: number }, now: number): string {
  if (session.graceEndsAt === undefined) return "connected";
  return `in grace until ${time(session.graceEndsAt)} (${Math.max(0, Math.ceil((session.graceEndsAt - now) / 1000))} s left)`;
}

function time(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
