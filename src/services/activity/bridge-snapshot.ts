// Everything the dashboard and getBridgeStatus show about the bridge, read in one go from the
// monitor (activity, sessions, identity), the extension client and the language servers. Pure
// reading, cheap (no I/O): safe to build on every request.
import type { ActivityEntry, ToolCallEntry } from "../../capabilities/activity/activity-entry.ts";
import type { BridgeIdentity, BridgeMonitor, SessionsView } from "../../capabilities/activity/bridge-monitor.ts";
import type { ExtensionLink } from "../../capabilities/context.ts";
import type { LspService } from "../../lsp/lsp-service.ts";
import { healthScore, type HealthInputs, type HealthScore } from "./health-score.ts";
import { latencyOverTime, latencyTable, rowOf, type LatencyRow } from "./latency.ts";

const RECENT_MS = 10 * 60_000;

export interface LanguageServerView {
  id: string;
  root: string;
  state: string;
  crashes: number;
  memoryBytes: number | null;
  openDocuments: number;
  lastError?: string;
}

export interface BridgeSnapshot {
  bridge: BridgeIdentity & { uptimeMs: number };
  sessions: SessionsView;
  extension: ReturnType<ExtensionLink["status"]>;
  languageServers: LanguageServerView[];
  latency: { overall: LatencyRow; tools: LatencyRow[]; toolsets: LatencyRow[]; perMinute: ReturnType<typeof latencyOverTime> };
  health: HealthScore;
  /** Newest first. */
  recent: ActivityEntry[];
  /** Entries the ring holds of its capacity. */
  kept: { entries: number; capacity: number };
}

export interface SnapshotSources {
  monitor: BridgeMonitor;
  extension: Pick<ExtensionLink, "status">;
  lsp: Pick<LspService, "status">;
}

export function bridgeSnapshot(src: SnapshotSources, opts: { now: number; recent?: number }): BridgeSnapshot {
  const log = src.monitor.activity;
  const entries = log.entries();
  const calls = entries.filter((e): e is ToolCallEntry => e.kind === "call");
  const extension = src.extension.status();
  const servers = src.lsp.status().servers;
  const identity = src.monitor.identity();
  return {
    bridge: { ...identity, uptimeMs: opts.now - identity.startedAt },
    sessions: src.monitor.sessions(),
    extension,
    languageServers: servers.map((s) => ({
      id: s.id,
      root: s.root,
      state: s.state,
      crashes: s.crashes,
      memoryBytes: s.memoryBytes ?? null,
      openDocuments: s.openDocuments,
      ...(s.lastError === undefined ? {} : { lastError: s.lastError }),
    })),
    latency: {
      overall: rowOf("all tools", calls),
      tools: latencyTable(calls, "tool"),
      toolsets: latencyTable(calls, "toolset"),
      perMinute: latencyOverTime(calls, { now: opts.now, minutes: 30 }),
    },
    health: healthOf(entries, { now: opts.now, breaker: extension.state === "disconnected" ? undefined : extension.breaker }),
    recent: entries.slice(-(opts.recent ?? 50)).reverse(),
    kept: { entries: entries.length, capacity: log.capacity },
  };
}

function healthOf(entries: readonly ActivityEntry[], opts: { now: number; breaker: HealthInputs["breaker"] }): HealthScore {
  const recent = entries.filter((e) => e.at >= opts.now - RECENT_MS);
  const calls = recent.filter((e): e is ToolCallEntry => e.kind === "call");
  const count = (event: string) => recent.filter((e) => e.kind === "event" && e.event === event).length;
  return healthScore({
    breaker: opts.breaker,
    recentCalls: calls.length,
    recentErrors: calls.filter((c) => c.outcome !== "ok").length,
    p95Ms: calls.length === 0 ? undefined : rowOf("", calls).p95Ms,
    rateLimited: count("rate.limited"),
    lspCrashes: count("lsp.crashed"),
  });
}
