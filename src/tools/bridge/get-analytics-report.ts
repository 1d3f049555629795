// getAnalyticsReport: how the bridge is used: the most called tools and toolsets, error codes
// and the tools that hit them, clients, tools used together, and lifecycle event counts.
import * as v from "valibot";
import { analyticsReport } from "../../services/activity/usage-report.ts";
import { defineTool } from "../platform/define-tool.ts";
import { iso, monitorOf } from "./bridge-monitor.ts";

export default defineTool({
  name: "getAnalyticsReport",
  title: "Analytics report",
  description:
    "Reports how the bridge is used: most called tools and toolsets, error codes and their tools, clients, tools used together, and event counts.",
  searchHint: "usage analytics statistics most used tools errors clients workflows used together",
  input: v.strictObject({
    top: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Rows of the top tools (default 15).")),
      15,
    ),
  }),
  output: v.object({
    since: v.pipe(v.nullable(v.string()), v.description("The oldest call counted: the log keeps the last 500 entries.")),
    calls: v.number(),
    errors: v.number(),
    sessions: v.number(),
    topTools: v.array(v.object({ tool: v.string(), calls: v.number(), errors: v.number() })),
    toolsets: v.array(v.object({ toolset: v.string(), calls: v.number() })),
    errorCodes: v.array(v.object({ code: v.string(), count: v.number(), tools: v.array(v.string()) })),
    clients: v.array(v.object({ client: v.string(), calls: v.number() })),
    usedTogether: v.array(v.object({ tools: v.tuple([v.string(), v.string()]), count: v.number() })),
    eventsSinceStart: v.pipe(v.record(v.string(), v.number()), v.description("Lifecycle events since the bridge started, by name.")),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const log = monitorOf(ctx).activity;
    const report = analyticsReport(log.calls(), { top: input.top });
    return { ...report, since: report.since === null ? null : iso(report.since), eventsSinceStart: Object.fromEntries(log.eventTotals()) };
  },
});
