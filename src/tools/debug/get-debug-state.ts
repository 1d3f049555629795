// getDebugState: a debug session's state: running, stopped (why, where, the stack, a frame's scopes
// and variables within depth and size limits, secrets masked), or ended (its exit code).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";
import { stoppedState } from "./stopped-state.ts";
import { FrameSchema, StopSchema, VariableSchema } from "./stop-view.ts";

export default defineTool({
  name: "getDebugState",
  title: "Debug state",
  description:
    "Shows a debug session's state: threads, why and where it stopped, the stack, and a frame's scopes and variables (depth and size limited, secrets masked).",
  searchHint: "debugger state stack trace variables locals scopes threads where stopped",
  input: v.strictObject({
    sessionId: v.optional(v.pipe(v.string(), v.description("Default: your latest session."))),
    frameId: v.optional(v.pipe(v.number(), v.integer(), v.description("Whose scopes to show (default: the top frame)."))),
    depth: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4), v.description("Levels of children to expand (default 1).")),
    ),
    maxItems: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500), v.description("Variables per level (default 50).")),
    ),
    frames: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Stack frames (default 20)."))),
  }),
  output: v.object({
    sessionId: v.string(),
    program: v.string(),
    state: v.picklist(["starting", "running", "stopped", "ended"]),
    stop: v.optional(StopSchema),
    threads: v.optional(v.array(v.object({ id: v.number(), name: v.string() }))),
    stack: v.optional(v.array(FrameSchema)),
    scopes: v.optional(v.array(v.object({ name: v.string(), variables: v.array(VariableSchema), more: v.optional(v.number()) }))),
    exitCode: v.optional(v.number()),
    why: v.optional(v.string()),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const held = ctx.state(DEBUG_SESSIONS).get(ctx.session, input.sessionId);
    const { session } = held;
    const state = session.runState;
    const base = { sessionId: session.id, program: held.program, state: state.kind };
    if (state.kind === "ended") return { ...base, ...(state.exitCode === undefined ? {} : { exitCode: state.exitCode }), why: state.why };
    if (state.kind !== "stopped") return base;
    return { ...base, ...(await stoppedState(session, { stop: state.stop, fs: ctx.fs, input })) };
  },
});
