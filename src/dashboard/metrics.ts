// /metrics in the Prometheus text exposition format (version 0.0.4): tool calls, errors and
// latency histograms per tool since the bridge started, sessions, language servers, the VS Code
// extension, lifecycle events and the health score.
import { LATENCY_BUCKETS_MS } from "../capabilities/activity/activity-log.ts";
import type { BridgeMonitor } from "../capabilities/activity/bridge-monitor.ts";
import type { BridgeSnapshot } from "../services/activity/bridge-snapshot.ts";

const P = "claude_ide_bridge";
const LSP_STATES = ["starting", "running", "idle", "evicted", "crashed", "failed"] as const;
const BREAKER_STATES = ["closed", "open", "half-open"] as const;

type Labels = Record<string, string>;

export function renderMetrics(monitor: BridgeMonitor, snap: BridgeSnapshot): string {
  const out: string[] = [];
  const family = (name: string, type: "counter" | "gauge" | "histogram", help: string) =>
    out.push(`# HELP ${P}_${name} ${help}`, `# TYPE ${P}_${name} ${type}`);
  const sample = (name: string, labels: Labels, value: number) => void out.push(`${P}_${name}${labelText(labels)} ${formatValue(value)}`);

  family("info", "gauge", "The bridge's version and runtime (always 1).");
  sample("info", { version: snap.bridge.version, runtime: snap.bridge.runtime }, 1);
  family("uptime_seconds", "gauge", "Seconds since the bridge started.");
  sample("uptime_seconds", {}, Math.round(snap.bridge.uptimeMs / 1000));

  const totals = [...monitor.activity.totals()].sort(([a], [b]) => a.localeCompare(b));
  family("tool_calls_total", "counter", "Tool calls finished since the bridge started, by tool.");
  for (const [tool, t] of totals) sample("tool_calls_total", { tool }, t.calls);
  family("tool_errors_total", "counter", "Tool calls that ended in an error result, by tool.");
  for (const [tool, t] of totals) sample("tool_errors_total", { tool }, t.errors);
  family("tool_duration_seconds", "histogram", "How long tool calls took, by tool.");
  for (const [tool, t] of totals) {
    LATENCY_BUCKETS_MS.forEach((le, i) => {
      sample("tool_duration_seconds_bucket", { tool, le: String(le / 1000) }, t.buckets[i] ?? 0);
    });
    sample("tool_duration_seconds_bucket", { tool, le: "+Inf" }, t.calls);
    sample("tool_duration_seconds_sum", { tool }, t.sumMs / 1000);
    sample("tool_duration_seconds_count", { tool }, t.calls);
  }

  family(
    "events_total",
    "counter",
    "Lifecycle events since the bridge started (sessions, extension, language servers, rate limits), by event.",
  );
  for (const [event, n] of [...monitor.activity.eventTotals()].sort(([a], [b]) => a.localeCompare(b))) sample("events_total", { event }, n);

  family("sessions", "gauge", "Open MCP sessions by transport and state.");
  sample("sessions", { transport: "websocket", state: "active" }, snap.sessions.websocket.active);
  sample("sessions", { transport: "websocket", state: "grace" }, snap.sessions.websocket.inGrace);
  sample("sessions", { transport: "http", state: "active" }, snap.sessions.http);

  family("language_servers", "gauge", "Language servers the bridge knows, by state.");
  for (const state of LSP_STATES) sample("language_servers", { state }, snap.languageServers.filter((s) => s.state === state).length);
  family("language_server_crashes", "gauge", "Crashes of each language server (server id and project root) the pool remembers.");
  for (const s of snap.languageServers) sample("language_server_crashes", { server: s.id, root: s.root }, s.crashes);
  family("language_server_memory_bytes", "gauge", "Resident memory of each running language server, where it can be read.");
  for (const s of snap.languageServers)
    if (s.memoryBytes !== null) sample("language_server_memory_bytes", { server: s.id, root: s.root }, s.memoryBytes);

  family("extension_connected", "gauge", "1 when the VS Code extension is connected and answering.");
  sample("extension_connected", {}, snap.extension.state === "connected" ? 1 : 0);
  family("extension_breaker", "gauge", "The extension circuit breaker's state (1 for the current one).");
  for (const state of BREAKER_STATES) sample("extension_breaker", { state }, snap.extension.breaker === state ? 1 : 0);

  family("health_score", "gauge", "The bridge's health score, 0-100 (getBridgeStatus explains it).");
  sample("health_score", {}, snap.health.score);
  return `${out.join("\n")}\n`;
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`).join(",")}}`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}
