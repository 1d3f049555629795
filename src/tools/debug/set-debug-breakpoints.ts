// setDebugBreakpoints: sets a file's breakpoints (replacing that file's earlier ones, as DAP does) or
// the function breakpoints; kept for the caller's later sessions and sent at once to its running ones,
// with the adapter's verdict on each.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { BreakpointReportSchema, applyFile, linesOf } from "./apply-breakpoints.ts";
import { applyFunctionBreakpoints, type BreakpointReport } from "./breakpoint-specs.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";

const MAX_BREAKPOINTS = 200;
const when = {
  condition: v.optional(v.pipe(v.string(), v.maxLength(4096), v.description('Stop only when true, e.g. "i == 3".'))),
  hitCondition: v.optional(v.pipe(v.string(), v.maxLength(100), v.description('Stop on the Nth hit, e.g. "3" (">= 3" for Python).'))),
};

export default defineTool({
  name: "setDebugBreakpoints",
  title: "Set debug breakpoints",
  description:
    "Sets a file's breakpoints by line or by a line's text (conditions, hit counts, logpoints) or function breakpoints; says which the debugger verified and why not.",
  searchHint: "set a breakpoint: stop at a line when it runs; debugger condition, hit count, logpoint, function breakpoint",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.description("Workspace-relative source file; its earlier breakpoints are replaced."))),
    breakpoints: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("1-based."))),
            text: v.optional(
              v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description("Text of the line (found again after edits).")),
            ),
            ...when,
            logMessage: v.optional(v.pipe(v.string(), v.maxLength(4096), v.description('Log instead of stopping: "i={i}".'))),
          }),
        ),
        v.maxLength(MAX_BREAKPOINTS),
        v.description("[] clears the file's breakpoints."),
      ),
    ),
    functions: v.optional(
      v.pipe(
        v.array(v.strictObject({ name: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description("Function name.")), ...when })),
        v.maxLength(MAX_BREAKPOINTS),
        v.description("Replaces all function breakpoints."),
      ),
    ),
  }),
  output: v.object({ breakpoints: v.array(BreakpointReportSchema), sessions: v.array(v.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(input, ctx) {
    if ((input.file === undefined) !== (input.breakpoints === undefined) || (input.file === undefined && input.functions === undefined)) {
      throw new ToolError("invalid_arguments", "Give file with breakpoints, or functions (or both)", {
        suggestion: 'E.g. {"file": "app.py", "breakpoints": [{"line": 12}, {"text": "total = a + b", "condition": "a > 2"}]}.',
      });
    }
    for (const bp of input.breakpoints ?? []) {
      if (bp.line === undefined && bp.text === undefined) {
        throw new ToolError("invalid_arguments", "Each breakpoint needs a line or a text", {
          suggestion: 'E.g. {"line": 12} or {"text": "return total"}.',
        });
      }
    }
    const sessions = ctx.state(DEBUG_SESSIONS);
    const mine = sessions.breakpointsOf(ctx.session);
    const live = sessions.live(ctx.session);
    const reports: BreakpointReport[] = [];
    if (input.file !== undefined && input.breakpoints !== undefined) {
      const path = await ctx.fs.resolve(input.file);
      const specs = input.breakpoints;
      const lines = await linesOf(ctx, { path, specs });
      if (specs.length === 0) mine.files.delete(path);
      else mine.files.set(path, specs);
      if (live.length === 0) {
        reports.push(...specs.map((_, i): BreakpointReport => ({ file: ctx.fs.relative(path), line: lines[i] ?? 0, status: "pending" })));
      }
      for (const held of live) reports.push(...(await applyFile(ctx, held.session, { path, specs })));
    }
    if (input.functions !== undefined) {
      mine.functions = input.functions;
      if (live.length === 0) reports.push(...input.functions.map((f): BreakpointReport => ({ function: f.name, status: "pending" })));
      for (const held of live) reports.push(...(await applyFunctionBreakpoints(held.session, input.functions)));
    }
    return { breakpoints: reports, sessions: live.map((h) => h.session.id) };
  },
});
