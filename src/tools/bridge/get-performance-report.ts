// getPerformanceReport: latency of the recent calls (p50/p95/p99 by nearest rank, max) per tool
// and per toolset, with the slowest calls, from what the activity log keeps.
import * as v from "valibot";
import { latencyTable, rowOf } from "../../services/activity/latency.ts";
import { defineTool } from "../platform/define-tool.ts";
import { callsOf, iso } from "./bridge-monitor.ts";

const Row = v.object({
  name: v.string(),
  calls: v.number(),
  errors: v.number(),
  p50Ms: v.number(),
  p95Ms: v.number(),
  p99Ms: v.number(),
  maxMs: v.number(),
});

export default defineTool({
  name: "getPerformanceReport",
  title: "Performance report",
  description: "Reports tool call latency (p50, p95, p99, max) and error counts per tool and per toolset, with the slowest recent calls.",
  searchHint: "performance latency slow tools percentiles p95 p99 timing how long calls take",
  input: v.strictObject({
    tool: v.optional(v.pipe(v.string(), v.description("Only this tool."))),
    toolset: v.optional(v.pipe(v.string(), v.description("Only tools of this toolset."))),
    top: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Rows per table (default 20).")), 20),
  }),
  output: v.object({
    since: v.pipe(v.nullable(v.string()), v.description("The oldest call counted: the log keeps the last 500 entries.")),
    overall: Row,
    tools: v.array(Row),
    toolsets: v.array(Row),
    slowest: v.array(v.object({ tool: v.string(), at: v.string(), durationMs: v.number(), outcome: v.string() })),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const calls = callsOf(ctx).filter(
      (c) => (input.tool === undefined || c.tool === input.tool) && (input.toolset === undefined || c.toolset === input.toolset),
    );
    return {
      since: calls.length === 0 ? null : iso(Math.min(...calls.map((c) => c.at))),
      overall: rowOf("all", calls),
      tools: latencyTable(calls, "tool").slice(0, input.top),
      toolsets: latencyTable(calls, "toolset").slice(0, input.top),
      slowest: [...calls]
        .sort((a, b) => b.durationMs - a.durationMs)
        .slice(0, 5)
        .map((c) => ({ tool: c.tool, at: iso(c.at), durationMs: c.durationMs, outcome: c.outcome })),
    };
  },
});
