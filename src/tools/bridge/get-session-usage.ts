// getSessionUsage: one session's calls (by default the caller's own): how many, which tools, how
// long they took, how much they returned, and what failed.
import * as v from "valibot";
import { sessionUsage } from "../../services/activity/usage-report.ts";
import { defineTool } from "../platform/define-tool.ts";
import { callsOf, iso } from "./bridge-monitor.ts";

export default defineTool({
  name: "getSessionUsage",
  title: "Session usage",
  description: "Reports one MCP session's tool usage (default: this session): calls per tool, errors, time spent and result sizes.",
  searchHint: "session usage my calls this session how many tools used time spent result size",
  input: v.strictObject({
    session: v.optional(v.pipe(v.string(), v.description("A session id (getBridgeStatus lists them); default: the caller's."))),
  }),
  output: v.object({
    session: v.string(),
    current: v.pipe(v.boolean(), v.description("Whether it is the caller's own session.")),
    client: v.nullable(v.string()),
    calls: v.number(),
    errors: v.number(),
    firstAt: v.nullable(v.string()),
    lastAt: v.nullable(v.string()),
    totalMs: v.number(),
    resultChars: v.number(),
    tools: v.array(v.object({ tool: v.string(), calls: v.number(), errors: v.number(), totalMs: v.number() })),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const session = input.session ?? ctx.session;
    const usage = sessionUsage(callsOf(ctx), session);
    return {
      ...usage,
      current: session === ctx.session,
      firstAt: usage.firstAt === null ? null : iso(usage.firstAt),
      lastAt: usage.lastAt === null ? null : iso(usage.lastAt),
    };
  },
});
