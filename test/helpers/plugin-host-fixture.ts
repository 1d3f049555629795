// A PluginHost as the bridge makes one (the real Node runtime, registry and tool contexts), for tests
// and benches that drive plugins without a bridge; `run` calls a tool's handler as the dispatcher would.
import { createNodeRuntime } from "../../runtime/node.ts";
import type { ToolContext } from "../../src/capabilities/context.ts";
import { silentLogger } from "../../src/log.ts";
import { PluginHost } from "../../src/plugins/plugin-host.ts";
import type { PluginImporter } from "../../src/ports/plugin-import.ts";
import { ToolRegistry } from "../../src/tools/platform/registry.ts";
import { toolContext } from "../../src/tools/platform/tool-environment.ts";
import { testEnvironment } from "./session-fixture.ts";

export interface TestPluginHost {
  host: PluginHost;
  registry: ToolRegistry;
  /** Calls the tool's handler with a fresh call context (aborted by `signal` when given). */
  run(name: string, input?: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  /** A call's context, as the dispatcher makes one for a tool declaring no programs. */
  context(signal?: AbortSignal): ToolContext;
}

/** Not started: call `host.start()`, and `host.stop()` when done. */
export function testPluginHost(opts: {
  sources: string[];
  /** The working directory and the only workspace folder. */
  dir: string;
  watch?: boolean;
  memoryLimitMb?: number;
  onToolsChanged?(): void;
}): TestPluginHost {
  const registry = new ToolRegistry([], { slim: false, maxResultChars: 10_000 });
  const env = testEnvironment(registry);
  const runtime = createNodeRuntime();
  const host = new PluginHost({
    sources: opts.sources,
    watch: opts.watch ?? false,
    fs: runtime.fs,
    importer: runtime.plugins as PluginImporter,
    cwd: opts.dir,
    workspaceFolders: [opts.dir],
    registry,
    settings: env.env.settings,
    makeContext: (scope) => toolContext(env, scope),
    log: silentLogger,
    onToolsChanged: () => opts.onToolsChanged?.(),
    ...(opts.memoryLimitMb === undefined ? {} : { memoryLimitMb: opts.memoryLimitMb }),
  });
  const context = (signal = new AbortController().signal) =>
    toolContext(env, { session: "s", executables: [], signal, progress: () => {}, log: () => {} });
  const run = (name: string, input: Record<string, unknown> = {}, signal?: AbortSignal) => {
    const handler = registry.get(name)?.handlers.headless;
    if (handler === undefined) throw new Error(`no tool ${name}`);
    return handler(input, context(signal));
  };
  return { host, registry, run, context };
}
