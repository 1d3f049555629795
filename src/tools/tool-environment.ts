// The one factory of tool capabilities, used by the bridge and by every test (so tests exercise
// the real jail and the real ctx.fs, never a hand-made context).
import type { EventPublisher } from "../events/event-bus.ts";
import { createExec } from "../exec/exec.ts";
import type { LspService } from "../lsp/lsp-service.ts";
import { noLanguageServers } from "../lsp/no-language-servers.ts";
import type { Runtime } from "../runtime.ts";
import type { Workspace } from "../security/paths.ts";
import { createWorkspaceFs } from "../workspace/workspace-fs.ts";
import type { CallScope, ExtensionLink, ToolCatalog, ToolContext, ToolEnvironment, ToolSettings } from "./context.ts";
import { createProbes } from "./probes.ts";

export interface ToolEnvironmentOptions {
  workspace: Workspace;
  settings: ToolSettings;
  catalog: ToolCatalog;
  events: EventPublisher;
  extension?: ExtensionLink;
  /** The bridge's language servers; without them LSP tools answer that none run. */
  lsp?: LspService;
}

/** What the factory holds: the environment tools see, and what only it may use to build a call's context. */
export interface ToolHost {
  readonly env: ToolEnvironment;
  readonly runtime: Pick<Runtime, "fs" | "which" | "spawn" | "env">;
}

export function createToolEnvironment(runtime: ToolHost["runtime"], opts: ToolEnvironmentOptions): ToolHost {
  return {
    runtime,
    env: {
      fs: createWorkspaceFs(runtime.fs, opts.workspace),
      settings: opts.settings,
      probes: createProbes(runtime),
      extension: opts.extension ?? { connected: false },
      catalog: opts.catalog,
      events: opts.events,
      lsp: opts.lsp ?? noLanguageServers(),
    },
  };
}

/** One call's context: named fields only, so nothing of the host reaches a tool. */
export function toolContext(host: ToolHost, call: CallScope): ToolContext {
  const { env } = host;
  return {
    fs: env.fs,
    settings: env.settings,
    probes: env.probes,
    extension: env.extension,
    catalog: env.catalog,
    events: env.events,
    lsp: env.lsp,
    exec: createExec({ runtime: host.runtime, fs: env.fs }, call.executables, call.signal),
    session: call.session,
    signal: call.signal,
    progress: call.progress,
    log: call.log,
  };
}
