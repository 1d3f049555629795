// What the VS Code debugger tools share: finding the VS Code debug session a call means, reading a
// stopped program through the session's DAP requests (the extension carries them; stop-view.ts builds
// the same views as for a headless session), and the answer of a start, step or continue.
import { ToolError } from "../../../errors.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import type { DebugSession, StopInfo } from "../../../dap/debug-session.ts";
import { DEBUG_READ_COMMANDS, type WireDebugSession, type WireRunState } from "../../../extension/protocol-debug.ts";
import { stopView, type OutcomeView, type VariableLimits } from "../stop-view.ts";

/** Ids of the extension's sessions ("vscode-3"); headless ones are "debug-N". */
export function isVSCodeSession(id: string | undefined): boolean {
  return id?.startsWith("vscode-") === true;
}

export async function vscodeSessions(ctx: ToolContext): Promise<WireDebugSession[]> {
  return (await ctx.extension.request("extension/debugSessions", {}, { signal: ctx.signal })).sessions;
}

/** The session asked for, else VS Code's active one, else the newest live one, else the newest. */
export async function pickSession(ctx: ToolContext, id: string | undefined): Promise<WireDebugSession> {
  const all = await vscodeSessions(ctx);
  const live = all.filter((s) => s.state.kind !== "ended");
  const found =
    id === undefined
      ? (live.find((s) => s.active) ?? live.find((s) => s.startedByBridge) ?? live.at(-1) ?? all.at(-1))
      : all.find((s) => s.id === id);
  if (found === undefined) {
    throw new ToolError("debug_session_not_found", id === undefined ? "No debug session in VS Code" : `No VS Code debug session ${id}`, {
      suggestion: all.length > 0 ? `VS Code has: ${all.map((s) => `${s.id} (${s.name})`).join(", ")}.` : "Start one with startDebugging.",
    });
  }
  return found;
}

const READ: readonly string[] = DEBUG_READ_COMMANDS;

/**
 * The part of a headless DebugSession that stop-view.ts reads (its DAP requests and the adapter's
 * exceptionInfo flag), served by the VS Code session through the extension.
 */
export function sessionView(ctx: ToolContext, session: WireDebugSession): DebugSession {
  const connection = {
    async request(command: string, args?: unknown) {
      if (!READ.includes(command)) throw new Error(`${command} is not a request the bridge sends through VS Code`);
      const params = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
      const r = await ctx.extension.request(
        "extension/debugRequest",
        { sessionId: session.id, command: command as (typeof DEBUG_READ_COMMANDS)[number], args: params },
        { signal: ctx.signal },
      );
      return { body: command === "stackTrace" ? withLocalPaths(r.body) : r.body };
    },
  };
  // stop-view.ts reads only these three members of a session.
  return {
    id: session.id,
    connection,
    capabilities: { supportsExceptionInfoRequest: session.supportsExceptionInfo },
  } as unknown as DebugSession;
}

/**
 * A remote VS Code (code-server, Remote-SSH) names sources by URI (vscode-remote://host/path): the
 * frames get the file path, so stop-view.ts shows it workspace-relative.
 */
export function withLocalPaths(body: unknown): unknown {
  if (typeof body !== "object" || body === null || !("stackFrames" in body) || !Array.isArray(body.stackFrames)) return body;
  const frames = body.stackFrames.map((f: { source?: { path?: unknown } }) => {
    const path = f.source?.path;
    const uri = typeof path === "string" ? /^(?:file|vscode-remote):\/\/[^/]*(\/[^?#]*)/.exec(path) : null;
    return uri === null || uri[1] === undefined ? f : { ...f, source: { ...f.source, path: decodeURIComponent(uri[1]) } };
  });
  return { ...body, stackFrames: frames };
}

export function stopInfo(state: WireRunState): StopInfo {
  return {
    reason: state.reason ?? "unknown",
    threadId: state.threadId,
    ...(state.description === undefined ? {} : { description: state.description }),
    ...(state.text === undefined ? {} : { text: state.text }),
  };
}

/** A start's, step's or continue's answer, in the headless tools' shape. */
export async function vscodeOutcome(
  ctx: ToolContext,
  session: WireDebugSession,
  opts: { output?: string | undefined; locals?: VariableLimits } = {},
): Promise<OutcomeView> {
  const { state } = session;
  const out: OutcomeView = { sessionId: session.id, state: state.kind };
  if (state.kind === "stopped")
    out.stop = await stopView(sessionView(ctx, session), stopInfo(state), {
      fs: ctx.fs,
      frames: 10,
      locals: opts.locals ?? { depth: 1, maxItems: 30 },
    });
  if (state.kind === "ended") {
    if (state.exitCode !== undefined) out.exitCode = state.exitCode;
    out.why = state.why ?? "the debug session ended";
  }
  if (opts.output !== undefined && opts.output !== "") out.newOutput = opts.output;
  return out;
}
