// Latency figures from the calls the activity log keeps: p50/p95/p99 by nearest rank (a value that
// was really measured, never an interpolation), per tool and per toolset.
import type { ToolCallEntry } from "../../capabilities/activity/activity-entry.ts";

export interface LatencyRow {
  name: string;
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The nearest-rank percentile of ascending `sorted` (0 < p <= 100); undefined when empty. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** One row per tool (or toolset), the most called first. */
export function latencyTable(calls: readonly ToolCallEntry[], by: "tool" | "toolset"): LatencyRow[] {
  const groups = new Map<string, ToolCallEntry[]>();
  for (const call of calls) {
    const key = by === "tool" ? call.tool : (call.toolset ?? "(unknown)");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [call]);
    else group.push(call);
  }
  return [...groups].map(([name, group]) => rowOf(name, group)).sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}

export function rowOf(name: string, calls: readonly ToolCallEntry[]): LatencyRow {
  const sorted = calls.map((c) => c.durationMs).sort((a, b) => a - b);
  return {
    name,
    calls: calls.length,
    errors: calls.filter((c) => c.outcome !== "ok").length,
    p50Ms: percentile(sorted, 50) ?? 0,
    p95Ms: percentile(sorted, 95) ?? 0,
    p99Ms: percentile(sorted, 99) ?? 0,
    maxMs: sorted.at(-1) ?? 0,
  };
}

/** p95 of the calls finished in each minute of the last `minutes`, oldest first (null: no call). */
export function latencyOverTime(
  calls: readonly ToolCallEntry[],
  opts: { now: number; minutes: number },
): { at: number; p95Ms: number | null; calls: number }[] {
  const end = Math.floor(opts.now / 60_000) * 60_000 + 60_000;
  const start = end - opts.minutes * 60_000;
  const buckets: number[][] = Array.from({ length: opts.minutes }, () => []);
  for (const call of calls) {
    if (call.at < start || call.at >= end) continue;
    buckets[Math.floor((call.at - start) / 60_000)]?.push(call.durationMs);
  }
  return buckets.map((durations, i) => ({
    at: start + i * 60_000,
    p95Ms:
      percentile(
        [...durations].sort((a, b) => a - b),
        95,
      ) ?? null,
    calls: durations.length,
  }));
}
