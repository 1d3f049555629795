// getDebugState, evaluateInDebugger and getDebugOutput on a VS Code debug session, in the headless
// tools' shapes: the state and stack of the session's stopped member, a frame's scopes and variables
// (depth and size limited, secrets masked by stop-view.ts), an expression's value, the output paged.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolError } from "../../../errors.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import { evaluationView } from "../stop-view.ts";
import { stoppedState } from "../stopped-state.ts";
import { pickSession, sessionView, stopInfo } from "./vscode-sessions.ts";

export interface StateInput {
  sessionId?: string | undefined;
  frameId?: number | undefined;
  depth?: number | undefined;
  maxItems?: number | undefined;
  frames?: number | undefined;
}

export async function stateInVSCode(input: StateInput, ctx: ToolContext) {
  const wire = await pickSession(ctx, input.sessionId);
  const base = { sessionId: wire.id, program: wire.name, state: wire.state.kind };
  if (wire.state.kind === "ended")
    return { ...base, ...(wire.state.exitCode === undefined ? {} : { exitCode: wire.state.exitCode }), why: wire.state.why ?? "ended" };
  if (wire.state.kind !== "stopped") return base;
  return { ...base, ...(await stoppedState(sessionView(ctx, wire), { stop: stopInfo(wire.state), fs: ctx.fs, input })) };
}

export async function evaluateInVSCode(
  input: { expression: string; frameId?: number | undefined; sessionId?: string | undefined; depth?: number | undefined },
  ctx: ToolContext,
) {
  const wire = await pickSession(ctx, input.sessionId);
  if (wire.state.kind !== "stopped") {
    throw new ToolError(
      "invalid_arguments",
      `${wire.id} is ${wire.state.kind}, not stopped: expressions are evaluated in a stopped frame`,
      {
        suggestion: "Stop it first (a breakpoint, or debugPause).",
      },
    );
  }
  const session = sessionView(ctx, wire);
  let frameId = input.frameId;
  if (frameId === undefined && wire.state.threadId !== undefined) {
    const st = await session.connection.request<DebugProtocol.StackTraceResponse>("stackTrace", {
      threadId: wire.state.threadId,
      startFrame: 0,
      levels: 1,
    });
    frameId = st.body.stackFrames[0]?.id;
  }
  const r = await session.connection.request<DebugProtocol.EvaluateResponse>("evaluate", {
    expression: input.expression,
    ...(frameId === undefined ? {} : { frameId }),
    context: "repl",
  });
  return evaluationView(session, { expression: input.expression, body: r.body, depth: input.depth });
}

/** getDebugOutput's text: `from` counts characters here (VS Code keeps the output as one text). */
export async function outputInVSCode(
  input: { sessionId?: string | undefined; from?: number | undefined; maxChars?: number | undefined },
  ctx: ToolContext,
) {
  const wire = await pickSession(ctx, input.sessionId);
  const maxChars = Math.min(input.maxChars ?? 20_000, Math.floor(ctx.settings.maxResultChars / 2));
  const page = await ctx.extension.request(
    "extension/debugOutput",
    { sessionId: wire.id, since: input.from ?? 0, maxChars },
    { signal: ctx.signal },
  );
  const status = wire.state.kind === "ended" ? `ended (${wire.state.why ?? "ended"})` : wire.state.kind;
  const lines = [`${wire.id} (${wire.name}, VS Code) · ${status}`];
  if (page.dropped) lines.push("[earlier output was dropped: VS Code's link keeps the last 256 KB]");
  lines.push("", page.text === "" ? "(no output yet)" : page.text.replace(/\n$/, ""));
  if (page.more) lines.push("", `[more: call again with from=${page.next}]`);
  return lines.join("\n");
}
