// A real ToolContext for unit tests, built by the bridge's own factory (src/tools/platform/tool-environment.ts)
// on the real Node runtime and the real workspace jail: what a tool sees here is what it sees in the
// bridge. Only the call's scope (signal, progress, log) is recorded for assertions.
import { createNodeRuntime } from "../../runtime/node.ts";
import { DEFAULT_CONFIG } from "../../src/config/schema.ts";
import type { LogLevel } from "../../src/capabilities/log-levels.ts";
import type { Runtime } from "../../src/ports/runtime.ts";
import { createWorkspace } from "../../src/security/jail/workspace-jail.ts";
import type { ExtensionLink, ToolCatalog, ToolContext, ToolSettings } from "../../src/capabilities/context.ts";
import type { Tool } from "../../src/tools/platform/define-tool.ts";
import type { BridgeMonitor } from "../../src/capabilities/activity/bridge-monitor.ts";
import { createToolEnvironment, toolContext, type ToolHost } from "../../src/tools/platform/tool-environment.ts";
import { testEventBus } from "./session-fixture.ts";

export interface TestToolContext extends ToolContext {
  readonly abort: AbortController;
  readonly progressCalls: { progress: number; total?: number; message?: string }[];
  readonly logCalls: { level: LogLevel; message: string; data?: unknown }[];
}

export interface TestContextOptions {
  /** The tools getToolCapabilities and the like see (default: none). */
  tools?: readonly Tool[];
  extension?: ExtensionLink;
  /** A runtime other than the real Node one (a `which` that finds nothing, say). */
  runtime?: ToolHost["runtime"];
  /** The executables the call may run (what its tool would declare). */
  executables?: readonly string[];
  /** The calling session's id (default "test-session"). */
  session?: string;
  maxResultChars?: number;
  /** Settings beyond the defaults (--allow-command, --allow-private-http). */
  settings?: Partial<ToolSettings>;
  /** The bridge's monitor (activity log, sessions, doctor) the bridge tools read. */
  monitor?: BridgeMonitor;
}

let nodeRuntime: Runtime | undefined;

export function catalogOf(tools: readonly Tool[]): ToolCatalog {
  return {
    list: () =>
      tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        searchHint: t.searchHint,
        requires: t.requires,
        readOnly: t.annotations.readOnlyHint === true,
      })),
  };
}

export async function makeToolContext(root: string, opts: TestContextOptions = {}): Promise<TestToolContext> {
  nodeRuntime ??= createNodeRuntime();
  const runtime = opts.runtime ?? nodeRuntime;
  const host = createToolEnvironment(runtime, {
    workspace: await createWorkspace(runtime.fs, { root }),
    events: testEventBus(),
    settings: {
      maxResultChars: opts.maxResultChars ?? DEFAULT_CONFIG.maxResultSizeKb * 1024,
      timeoutMs: DEFAULT_CONFIG.timeoutMs,
      slim: false,
      ...opts.settings,
    },
    catalog: catalogOf(opts.tools ?? []),
    ...(opts.extension === undefined ? {} : { extension: opts.extension }),
    ...(opts.monitor === undefined ? {} : { monitor: opts.monitor }),
  });
  const abort = new AbortController();
  const progressCalls: TestToolContext["progressCalls"] = [];
  const logCalls: TestToolContext["logCalls"] = [];
  const ctx = toolContext(host, {
    session: opts.session ?? "test-session",
    executables: opts.executables ?? [],
    signal: abort.signal,
    progress: (progress, o) => progressCalls.push({ progress, ...o }),
    log: (level, message, data) => logCalls.push({ level, message, data }),
  });
  return { ...ctx, abort, progressCalls, logCalls };
}
