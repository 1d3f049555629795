// debugContinue / StepOver / StepIn / StepOut / Pause and stopDebugging on a VS Code debug session:
// the extension sends the request to the member that stopped and waits for the next stop or the end;
// the answer is where, with the top frame's locals, as for a headless session.
import { ToolError } from "../../../errors.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import type { DEBUG_RUN_COMMANDS } from "../../../extension/protocol-debug.ts";
import type { OutcomeView } from "../stop-view.ts";
import { pickSession, vscodeOutcome } from "./vscode-sessions.ts";

export interface RunInput {
  sessionId?: string | undefined;
  threadId?: number | undefined;
  timeoutMs?: number | undefined;
}

const DEFAULT_WAIT_MS = 15_000;

export async function runInVSCode(command: (typeof DEBUG_RUN_COMMANDS)[number], input: RunInput, ctx: ToolContext): Promise<OutcomeView> {
  const wire = await pickSession(ctx, input.sessionId);
  if (wire.state.kind === "ended") return vscodeOutcome(ctx, wire);
  if (command !== "pause" && wire.state.kind !== "stopped") {
    throw new ToolError("invalid_arguments", `${wire.id} is running, not stopped`, {
      suggestion: "Wait for it with debugPause (or set a breakpoint it will reach); getDebugState shows its state.",
    });
  }
  if (command === "pause" && wire.state.kind === "stopped") return vscodeOutcome(ctx, wire);
  const r = await ctx.extension.request(
    "extension/debugControl",
    {
      sessionId: wire.id,
      command,
      ...(input.threadId === undefined ? {} : { threadId: input.threadId }),
      waitMs: input.timeoutMs ?? DEFAULT_WAIT_MS,
    },
    { signal: ctx.signal },
  );
  return vscodeOutcome(ctx, r.session, { output: r.output });
}

export async function stopInVSCode(input: { sessionId?: string | undefined }, ctx: ToolContext) {
  const wire = await pickSession(ctx, input.sessionId);
  const r = await ctx.extension.request("extension/debugStop", { sessionId: wire.id }, { signal: ctx.signal });
  return {
    sessionId: wire.id,
    program: wire.name,
    wasRunning: wire.state.kind !== "ended",
    ...(wire.state.kind === "ended" && r.session.state.exitCode !== undefined ? { exitCode: r.session.state.exitCode } : {}),
  };
}
