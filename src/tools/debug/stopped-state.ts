// What getDebugState shows of a stopped session, headless or in VS Code: its threads, the stopped
// thread's stack, the chosen frame's cheap scopes with their variables (depth and size limited),
// and why it stopped. One shape for both backends, so a model reads one answer.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DebugSession, StopInfo } from "../../dap/debug-session.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";
import { stackOf, stopView, variablesOf } from "./stop-view.ts";

export interface StoppedStateInput {
  frameId?: number | undefined;
  depth?: number | undefined;
  maxItems?: number | undefined;
  frames?: number | undefined;
}

export async function stoppedState(session: DebugSession, at: { stop: StopInfo; fs: WorkspaceFs; input: StoppedStateInput }) {
  const { stop, fs, input } = at;
  const limits = { depth: input.depth ?? 1, maxItems: input.maxItems ?? 50 };
  const threads = (await session.connection.request<DebugProtocol.ThreadsResponse>("threads")).body.threads.map((t) => ({
    id: t.id,
    name: t.name,
  }));
  const threadId = stop.threadId ?? threads[0]?.id;
  const stack = threadId === undefined ? [] : await stackOf(session, fs, { threadId, levels: input.frames ?? 20 });
  const frameId = input.frameId ?? stack[0]?.id;
  const scopes = [];
  if (frameId !== undefined) {
    const r = await session.connection.request<DebugProtocol.ScopesResponse>("scopes", { frameId });
    // Expensive scopes (globals of a big module, registers) only when nothing cheaper is there.
    for (const scope of r.body.scopes.filter((s) => !s.expensive && s.presentationHint !== "registers")) {
      const { vars, more } = await variablesOf(session, scope.variablesReference, limits);
      scopes.push({ name: scope.name, variables: vars, ...(more > 0 ? { more } : {}) });
    }
  }
  const view = await stopView(session, stop, { fs, frames: 1, locals: { depth: 1, maxItems: 0 } });
  const { locals: _unused, stack: _top, ...reason } = view;
  return { stop: { ...reason, stack: [] }, threads, stack, scopes };
}
