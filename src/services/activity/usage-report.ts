// Usage figures from the calls the activity log keeps: the analytics report (what is used, by
// whom, what fails, what goes together) and one session's usage.
import type { ToolCallEntry } from "../../capabilities/activity/activity-entry.ts";
import { coOccurrence, type ToolPair } from "./co-occurrence.ts";

export interface AnalyticsReport {
  /** The oldest call counted (epoch ms), or null when there is none: the ring keeps the last 500 entries. */
  since: number | null;
  calls: number;
  errors: number;
  sessions: number;
  topTools: { tool: string; calls: number; errors: number }[];
  toolsets: { toolset: string; calls: number }[];
  errorCodes: { code: string; count: number; tools: string[] }[];
  clients: { client: string; calls: number }[];
  usedTogether: ToolPair[];
}

export function analyticsReport(calls: readonly ToolCallEntry[], opts: { top?: number } = {}): AnalyticsReport {
  const top = opts.top ?? 15;
  const byTool = countBy(calls, (c) => c.tool);
  const errorsByCode = new Map<string, Set<string>>();
  const codeCounts = countBy(
    calls.filter((c) => c.outcome !== "ok"),
    (c) => c.outcome,
  );
  for (const c of calls)
    if (c.outcome !== "ok") (errorsByCode.get(c.outcome) ?? errorsByCode.set(c.outcome, new Set()).get(c.outcome))?.add(c.tool);
  return {
    since: calls.length === 0 ? null : Math.min(...calls.map((c) => c.at)),
    calls: calls.length,
    errors: calls.filter((c) => c.outcome !== "ok").length,
    sessions: new Set(calls.map((c) => c.session)).size,
    topTools: ranked(byTool)
      .slice(0, top)
      .map(([tool, n]) => ({ tool, calls: n, errors: calls.filter((c) => c.tool === tool && c.outcome !== "ok").length })),
    toolsets: ranked(countBy(calls, (c) => c.toolset ?? "(unknown)")).map(([toolset, n]) => ({ toolset, calls: n })),
    errorCodes: ranked(codeCounts).map(([code, count]) => ({ code, count, tools: [...(errorsByCode.get(code) ?? [])].sort() })),
    clients: ranked(countBy(calls, (c) => c.client ?? "(unknown)")).map(([client, n]) => ({ client, calls: n })),
    usedTogether: coOccurrence(calls),
  };
}

export interface SessionUsage {
  session: string;
  client: string | null;
  calls: number;
  errors: number;
  firstAt: number | null;
  lastAt: number | null;
  totalMs: number;
  resultChars: number;
  tools: { tool: string; calls: number; errors: number; totalMs: number }[];
}

export function sessionUsage(calls: readonly ToolCallEntry[], session: string): SessionUsage {
  const own = calls.filter((c) => c.session === session);
  const tools = new Map<string, { tool: string; calls: number; errors: number; totalMs: number }>();
  for (const c of own) {
    const t = tools.get(c.tool) ?? { tool: c.tool, calls: 0, errors: 0, totalMs: 0 };
    t.calls += 1;
    if (c.outcome !== "ok") t.errors += 1;
    t.totalMs += c.durationMs;
    tools.set(c.tool, t);
  }
  return {
    session,
    client: own.find((c) => c.client !== undefined)?.client ?? null,
    calls: own.length,
    errors: own.filter((c) => c.outcome !== "ok").length,
    firstAt: own[0]?.at ?? null,
    lastAt: own.at(-1)?.at ?? null,
    totalMs: own.reduce((n, c) => n + c.durationMs, 0),
    resultChars: own.reduce((n, c) => n + (c.resultChars ?? 0), 0),
    tools: [...tools.values()].sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
  return out;
}

function ranked(counts: ReadonlyMap<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
