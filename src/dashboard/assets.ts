// The dashboard's script and style sheet, served from /dashboard/app.js and /dashboard/app.css so
// the page needs no inline script or style (CSP: script-src 'self'; style-src 'self'). The script
// listens to /stream and, on each event, fetches /dashboard/panels (server-rendered HTML) into
// #live, then applies the filters; it never builds markup from event data itself.
export const APP_JS = `"use strict";
(() => {
  const live = document.getElementById("live");
  const status = document.getElementById("stream-status");
  const last = document.getElementById("last-event");
  const tool = document.getElementById("filter-tool");
  const outcome = document.getElementById("filter-outcome");
  let timer;
  const applyFilters = () => {
    const want = tool.value.trim().toLowerCase();
    const kind = outcome.value;
    for (const row of document.querySelectorAll("#recent tbody tr")) {
      const t = (row.dataset.tool || "").toLowerCase();
      const o = row.dataset.outcome || "";
      const byTool = want === "" || t.includes(want);
      const byOutcome = kind === "all" || (kind === "ok" ? o === "ok" : o !== "" && o !== "ok");
      row.hidden = !(byTool && byOutcome);
    }
  };
  const refresh = async () => {
    timer = undefined;
    const response = await fetch("dashboard/panels", { credentials: "same-origin" });
    if (response.status === 401) {
      status.textContent = "Signed out: run claude-ide-bridge dashboard for a new link.";
      return;
    }
    if (!response.ok) return;
    live.innerHTML = await response.text();
    applyFilters();
  };
  const schedule = () => {
    if (timer === undefined) timer = setTimeout(refresh, 200);
  };
  tool.addEventListener("input", applyFilters);
  outcome.addEventListener("change", applyFilters);
  const stream = new EventSource("stream");
  stream.addEventListener("open", () => { status.textContent = "Live"; });
  stream.addEventListener("error", () => { status.textContent = "Reconnecting…"; });
  stream.addEventListener("resync", schedule);
  stream.addEventListener("activity", (event) => {
    const entry = JSON.parse(event.data);
    last.textContent = entry.kind === "call" ? "Last: " + entry.tool + " " + entry.outcome + " in " + entry.durationMs + " ms" : "Last: " + entry.event;
    schedule();
  });
  applyFilters();
})();
`;

export const APP_CSS = `:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #4d5661; --card: #f4f6f8; --line: #d0d7de;
  --accent: #0b5cad; --bad: #a40e26; --warn: #7a4d00; --good: #116329; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9ea7b3; --card: #161b22; --line: #30363d;
  --accent: #58a6ff; --bad: #ff7b72; --warn: #e3b341; --good: #56d364; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: baseline; padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.25rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
main { padding: 1rem; max-width: 1400px; margin: 0 auto; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 1rem; }
.filters h2 { width: 100%; }
input, select { font: inherit; color: var(--fg); background: var(--card); border: 1px solid var(--line); border-radius: 4px; padding: 0.2rem 0.4rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 1rem; }
.wide { grid-column: 1 / -1; }
.panels > * { min-width: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin: 0; }
.charts { display: contents; }
.score { font-size: 2rem; margin: 0 0 0.5rem; }
.badge { font-size: 0.9rem; padding: 0.1rem 0.4rem; border-radius: 4px; border: 1px solid currentColor; }
.healthy .badge { color: var(--good); } .degraded .badge { color: var(--warn); } .unhealthy .badge { color: var(--bad); }
dl { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 0.2rem 1rem; margin: 0; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
.health th, .health td { white-space: normal; overflow-wrap: anywhere; }
tr.error td { color: var(--bad); }
tr.event td { color: var(--muted); }
.empty { color: var(--muted); }
svg { width: 100%; height: auto; }
.axis { stroke: var(--line); }
.line { fill: none; stroke: var(--accent); stroke-width: 2; }
.dot { fill: var(--accent); }
.bar { fill: var(--accent); } .bar.has-errors { fill: var(--warn); }
.label { fill: var(--muted); font-size: 12px; } .label.end { text-anchor: end; }
`;
