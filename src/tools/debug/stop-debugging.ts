// stopDebugging: ends a debug session: the adapter is asked to end the program, then the adapter's
// whole process tree (the program included) is killed, whatever it answered.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";

export default defineTool({
  name: "stopDebugging",
  title: "Stop debugging",
  description:
    "Ends a debug session started with startDebugging: the program and the debug adapter are stopped, with every process they started; an attached program is left running.",
  searchHint: "stop debugging end debug session kill debugged program terminate",
  input: v.strictObject({ sessionId: v.optional(v.pipe(v.string(), v.description("Default: your latest session."))) }),
  output: v.object({ sessionId: v.string(), program: v.string(), wasRunning: v.boolean(), exitCode: v.optional(v.number()) }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(input, ctx) {
    const sessions = ctx.state(DEBUG_SESSIONS);
    const held = sessions.get(ctx.session, input.sessionId);
    const before = held.session.runState;
    await sessions.remove(held);
    return {
      sessionId: held.session.id,
      program: held.program,
      wasRunning: before.kind !== "ended",
      ...(before.kind === "ended" && before.exitCode !== undefined ? { exitCode: before.exitCode } : {}),
    };
  },
});
