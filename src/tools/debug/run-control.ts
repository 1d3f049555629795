// What continue, the steps and pause share: the request goes to the stopped thread, and the call
// waits (up to a timeout) for the program to stop again or end, then answers where, with the top
// frame's locals and what the program printed meanwhile. The waiter is set before the request is
// sent, so a stop that comes back at once is not missed.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { DapRequestError } from "../../dap/dap-connection.ts";
import { refusalAsToolError } from "./adapter-refusals.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";
import { firstThread, outcomeView, type OutcomeView } from "./stop-view.ts";

export const DEFAULT_WAIT_MS = 15_000;
export const MAX_WAIT_MS = 300_000;

export const runControlInput = v.strictObject({
  sessionId: v.optional(v.pipe(v.string(), v.description("From startDebugging (default: your latest session)."))),
  threadId: v.optional(v.pipe(v.number(), v.integer(), v.description("Default: the thread that stopped."))),
  timeoutMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(100),
      v.maxValue(MAX_WAIT_MS),
      v.description(`How long to wait for the next stop (default ${DEFAULT_WAIT_MS}).`),
    ),
  ),
});
export type RunControlInput = v.InferOutput<typeof runControlInput>;

export type RunCommand = "continue" | "next" | "stepIn" | "stepOut" | "pause";

export async function runControl(command: RunCommand, input: RunControlInput, ctx: ToolContext): Promise<OutcomeView> {
  const held = ctx.state(DEBUG_SESSIONS).get(ctx.session, input.sessionId);
  const { session } = held;
  const state = session.runState;
  if (state.kind === "ended") {
    return { sessionId: session.id, state: "ended", ...(state.exitCode === undefined ? {} : { exitCode: state.exitCode }), why: state.why };
  }
  if (command !== "pause" && state.kind !== "stopped") {
    throw new ToolError("invalid_arguments", `${session.id} is running, not stopped`, {
      suggestion: "Wait for it with debugPause (or set a breakpoint it will reach); getDebugState shows its state.",
    });
  }
  if (command === "pause" && state.kind === "stopped") return outcomeView(session, { kind: "stopped", stop: state.stop }, { fs: ctx.fs });
  const threadId = input.threadId ?? (state.kind === "stopped" ? state.stop.threadId : undefined) ?? (await firstThread(session)) ?? 0;
  const outputFrom = session.output.end;
  if (command !== "pause") session.markRunning();
  const waited = session.waitForChange(input.timeoutMs ?? DEFAULT_WAIT_MS, ctx.signal);
  try {
    await session.connection.request(command, { threadId, ...(command === "continue" ? { singleThread: false } : {}) });
  } catch (err) {
    const refusal = refusalAsToolError(err);
    if (refusal !== undefined) throw refusal;
    if (!(err instanceof DapRequestError) || err.reason !== "closed") {
      throw new ToolError(
        "debug_adapter_error",
        `The debug adapter refused ${command}: ${err instanceof Error ? err.message : String(err)}`,
        {
          suggestion: "getDebugState shows where the program is.",
        },
      );
    }
  }
  return outcomeView(session, await waited, { fs: ctx.fs, outputFrom });
}
