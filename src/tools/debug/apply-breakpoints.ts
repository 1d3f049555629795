// Sends the caller's breakpoints to a session: each file's list (lines found afresh from a line's
// text), the function breakpoints, and the exception filters that break on uncaught exceptions.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import type { DebugSession } from "../../dap/debug-session.ts";
import {
  applyFileBreakpoints,
  applyFunctionBreakpoints,
  resolveLines,
  type BreakpointReport,
  type BreakpointSpec,
} from "./breakpoint-specs.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";

export const BreakpointReportSchema = v.object({
  file: v.optional(v.string()),
  function: v.optional(v.string()),
  line: v.optional(v.number()),
  status: v.picklist(["verified", "unverified", "pending"]),
  boundLine: v.optional(v.number()),
  message: v.optional(v.string()),
  id: v.optional(v.number()),
});

const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

export async function linesOf(ctx: ToolContext, file: { path: string; specs: readonly BreakpointSpec[] }): Promise<number[]> {
  const text = await ctx.fs.readText(file.path, { maxBytes: MAX_SOURCE_BYTES });
  return resolveLines(file.specs, { text, file: ctx.fs.relative(await ctx.fs.resolve(file.path)) });
}

export async function applyFile(
  ctx: ToolContext,
  session: DebugSession,
  file: { path: string; specs: readonly BreakpointSpec[] },
): Promise<BreakpointReport[]> {
  const lines = await linesOf(ctx, file);
  return applyFileBreakpoints(
    session,
    { path: file.path, shown: ctx.fs.relative(await ctx.fs.resolve(file.path)) },
    { specs: file.specs, lines },
  );
}

/** Everything the caller set, sent to one session (at its start, between initialized and configurationDone). */
export async function applyAll(ctx: ToolContext, session: DebugSession, opts: { breakOnUncaught: boolean }): Promise<BreakpointReport[]> {
  const mine = ctx.state(DEBUG_SESSIONS).breakpointsOf(ctx.session);
  const reports: BreakpointReport[] = [];
  for (const [path, specs] of mine.files) reports.push(...(await applyFile(ctx, session, { path, specs })));
  if (mine.functions.length > 0) reports.push(...(await applyFunctionBreakpoints(session, mine.functions)));
  const filters = opts.breakOnUncaught ? [...session.adapter.uncaughtFilters] : [];
  await session.connection.request("setExceptionBreakpoints", { filters });
  return reports;
}
