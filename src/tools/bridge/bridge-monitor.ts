// The bridge's monitor (activity log, sessions, doctor) as the bridge tools reach it: a context
// built without a bridge (another area's tests) has none, and the tools say so plainly.
import type { ToolCallEntry } from "../../capabilities/activity/activity-entry.ts";
import type { BridgeMonitor } from "../../capabilities/activity/bridge-monitor.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";

export function monitorOf(ctx: Pick<ToolContext, "monitor">): BridgeMonitor {
  if (ctx.monitor === undefined) {
    throw new ToolError("not_supported", "This bridge keeps no activity log (it was built without its monitor)", {
      suggestion: "Run the bridge with `claude-ide-bridge` (its CLI), which keeps one.",
    });
  }
  return ctx.monitor;
}

export function callsOf(ctx: Pick<ToolContext, "monitor">): ToolCallEntry[] {
  return monitorOf(ctx).activity.calls();
}

/** Epoch ms as an ISO string: what a model reads without arithmetic. */
export function iso(at: number): string {
  return new Date(at).toISOString();
}
