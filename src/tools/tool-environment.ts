// The one factory of tool capabilities, used by the bridge and by every test (so tests exercise
// the real jail and the real ctx.fs, never a hand-made context).
import type { Runtime } from "../runtime.ts";
import type { Workspace } from "../security/paths.ts";
import { createWorkspaceFs } from "../workspace/workspace-fs.ts";
import type { CallScope, ExtensionLink, ToolCatalog, ToolContext, ToolEnvironment, ToolSettings } from "./context.ts";
import { createProbes } from "./probes.ts";

export interface ToolEnvironmentOptions {
  workspace: Workspace;
  settings: ToolSettings;
  catalog: ToolCatalog;
  extension?: ExtensionLink;
}

export function createToolEnvironment(runtime: Pick<Runtime, "fs" | "which">, opts: ToolEnvironmentOptions): ToolEnvironment {
  return {
    fs: createWorkspaceFs(runtime.fs, opts.workspace),
    settings: opts.settings,
    probes: createProbes(runtime),
    extension: opts.extension ?? { connected: false },
    catalog: opts.catalog,
  };
}

export function toolContext(env: ToolEnvironment, call: CallScope): ToolContext {
  return { ...env, signal: call.signal, progress: call.progress, log: call.log };
}
