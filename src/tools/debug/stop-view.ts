// What the model reads about a stopped program: where (reason, thread, the top frames), the top
// frame's locals, and for an exception its type, message and stack. Variables are cut to a depth and
// a number of children, and values that look like secrets (by name or by shape, the same test that
// keeps them out of commands' environments) are masked.
import type { DebugProtocol } from "@vscode/debugprotocol";
import * as v from "valibot";
import { looksSecretName, looksSecretValue } from "../../security/commands/secret-names.ts";
import type { DebugSession, StopInfo, WaitOutcome } from "../../dap/debug-session.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";
import { isInside, relative } from "../../lib/paths/posix-path.ts";

const MAX_VALUE_CHARS = 200;
export const MASKED = "[masked: looks like a secret]";

export interface VariableLimits {
  depth: number;
  maxItems: number;
}

export interface VariableView {
  name: string;
  value: string;
  type?: string;
  children?: VariableView[];
  /** Children not shown (past maxItems, or below the depth limit). */
  more?: number;
}

export const VariableSchema: v.GenericSchema<VariableView> = v.object({
  name: v.string(),
  value: v.string(),
  type: v.optional(v.string()),
  children: v.optional(v.array(v.lazy(() => VariableSchema))),
  more: v.optional(v.number()),
});

export const FrameSchema = v.object({ id: v.number(), name: v.string(), file: v.optional(v.string()), line: v.number() });
export type FrameView = v.InferOutput<typeof FrameSchema>;

export const StopSchema = v.object({
  reason: v.string(),
  threadId: v.optional(v.number()),
  description: v.optional(v.string()),
  exception: v.optional(v.object({ id: v.optional(v.string()), message: v.optional(v.string()), stackTrace: v.optional(v.string()) })),
  stack: v.array(FrameSchema),
  locals: v.optional(v.array(VariableSchema)),
});
export type StopView = v.InferOutput<typeof StopSchema>;

/** What a start, continue or step answers: stopped where, ended how, or still running. */
export const OutcomeSchema = v.object({
  sessionId: v.string(),
  state: v.picklist(["stopped", "running", "ended"]),
  stop: v.optional(StopSchema),
  exitCode: v.optional(v.number()),
  why: v.optional(v.string()),
  /** The tail of what the program printed while it ran. */
  newOutput: v.optional(v.string()),
});
export type OutcomeView = v.InferOutput<typeof OutcomeSchema>;

export function maskValue(name: string, value: string): string {
  return looksSecretName(name) || looksSecretValue(value) || looksSecretValue(value.replace(/^['"]|['"]$/g, "")) ? MASKED : value;
}

export function shownPath(fs: WorkspaceFs, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return isInside(path, fs.root) ? relative(fs.root, path) || "." : path;
}

export async function stackOf(session: DebugSession, fs: WorkspaceFs, opts: { threadId: number; levels: number }): Promise<FrameView[]> {
  const r = await session.connection.request<DebugProtocol.StackTraceResponse>("stackTrace", {
    threadId: opts.threadId,
    startFrame: 0,
    levels: opts.levels,
  });
  return r.body.stackFrames.map((f) => {
    const file = shownPath(fs, f.source?.path);
    return { id: f.id, name: f.name, ...(file === undefined ? {} : { file }), line: f.line };
  });
}

/** The variables of a reference, `depth` levels deep, at most `maxItems` per level, secrets masked. */
export async function variablesOf(
  session: DebugSession,
  reference: number,
  limits: VariableLimits,
): Promise<{ vars: VariableView[]; more: number }> {
  const r = await session.connection.request<DebugProtocol.VariablesResponse>("variables", { variablesReference: reference });
  const all = r.body.variables.filter((x) => !x.name.startsWith("__") || x.name === "__return__");
  const shown = all.slice(0, limits.maxItems);
  const vars = await Promise.all(shown.map((x) => variableView(session, x, limits)));
  return { vars, more: all.length - shown.length };
}

async function variableView(session: DebugSession, x: DebugProtocol.Variable, limits: VariableLimits): Promise<VariableView> {
  const value = maskValue(x.name, x.value);
  const out: VariableView = { name: x.name, value: cut(value) };
  if (x.type !== undefined && x.type !== "") out.type = x.type;
  if (x.variablesReference > 0 && value !== MASKED) {
    if (limits.depth > 1) {
      const inner = await variablesOf(session, x.variablesReference, { ...limits, depth: limits.depth - 1 });
      out.children = inner.vars;
      if (inner.more > 0) out.more = inner.more;
    } else {
      const count = (x.namedVariables ?? 0) + (x.indexedVariables ?? 0);
      if (count > 0) out.more = count;
    }
  }
  return out;
}

/** The first scope the adapter calls locals (else its first cheap one) of a frame. */
export async function localsOf(session: DebugSession, frameId: number, limits: VariableLimits): Promise<VariableView[]> {
  const r = await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId });
  const scope = r.body.scopes.find((s) => s.presentationHint === "locals") ?? r.body.scopes.find((s) => !s.expensive);
  if (scope === undefined) return [];
  const { vars, more } = await variablesOf(session, scope.variablesReference, limits);
  return more > 0 ? [...vars, { name: "…", value: `${more} more` }] : vars;
}

export async function stopView(
  session: DebugSession,
  stop: StopInfo,
  opts: { fs: WorkspaceFs; frames: number; locals: VariableLimits },
): Promise<StopView> {
  const { fs } = opts;
  const threadId = stop.threadId ?? (await firstThread(session));
  const stack = threadId === undefined ? [] : await stackOf(session, fs, { threadId, levels: opts.frames });
  const view: StopView = {
    reason: stop.reason,
    ...(threadId === undefined ? {} : { threadId }),
    ...(stop.description === undefined && stop.text === undefined
      ? {}
      : { description: [stop.text, stop.description].filter(Boolean).join(": ") }),
    stack,
  };
  const top = stack[0];
  if (top !== undefined) view.locals = await localsOf(session, top.id, opts.locals);
  if (stop.reason === "exception" && threadId !== undefined && session.capabilities.supportsExceptionInfoRequest === true) {
    const info = await session.connection
      .request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", { threadId })
      .catch(() => undefined);
    if (info !== undefined) {
      const d = info.body.details;
      view.exception = {
        id: info.body.exceptionId,
        ...(info.body.description === undefined ? {} : { message: info.body.description }),
        ...(d?.stackTrace === undefined ? {} : { stackTrace: d.stackTrace }),
      };
    }
  }
  return view;
}

export async function firstThread(session: DebugSession): Promise<number | undefined> {
  const r = await session.connection.request<DebugProtocol.ThreadsResponse>("threads");
  return r.body.threads[0]?.id;
}

export async function outcomeView(
  session: DebugSession,
  outcome: WaitOutcome,
  opts: { fs: WorkspaceFs; outputFrom?: number; locals?: VariableLimits },
): Promise<OutcomeView> {
  const base: OutcomeView = { sessionId: session.id, state: outcome.kind };
  if (outcome.kind === "stopped")
    base.stop = await stopView(session, outcome.stop, { fs: opts.fs, frames: 10, locals: opts.locals ?? { depth: 1, maxItems: 30 } });
  if (outcome.kind === "ended") {
    if (outcome.exitCode !== undefined) base.exitCode = outcome.exitCode;
    base.why = outcome.why;
  }
  if (opts.outputFrom !== undefined) {
    const page = session.output.page(opts.outputFrom, { maxChars: 1_000_000, categories: ["stdout", "stderr", "console"] });
    const text = page.entries.map((e) => e.text).join("");
    if (text !== "") base.newOutput = text.length > 2000 ? `…${text.slice(-2000)}` : text;
  }
  return base;
}

function cut(value: string): string {
  return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
}

/** An evaluate answer as evaluateInDebugger shows it: the value (masked when it looks secret), its type, its children. */
export async function evaluationView(
  session: DebugSession,
  answer: { expression: string; body: DebugProtocol.EvaluateResponse["body"]; depth?: number | undefined },
): Promise<{ result: string; type?: string; children?: VariableView[]; more?: number }> {
  const { body } = answer;
  const result = maskValue(answer.expression, body.result);
  const out: { result: string; type?: string; children?: VariableView[]; more?: number } = { result };
  if (body.type !== undefined && body.type !== "") out.type = body.type;
  if (body.variablesReference > 0 && result !== MASKED) {
    const inner = await variablesOf(session, body.variablesReference, { depth: answer.depth ?? 1, maxItems: 50 });
    out.children = inner.vars;
    if (inner.more > 0) out.more = inner.more;
  }
  return out;
}
