// The bridge's side of plugins in one call: with --plugin, a PluginHost over the registry and the
// one tool-context factory, loaded before the bridge serves; without, nothing at all.
import { BridgeError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { PluginStatus, ToolCatalog } from "../capabilities/context.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { ToolRegistry } from "../tools/platform/registry.ts";
import { type ToolHost, toolContext } from "../tools/platform/tool-environment.ts";
import { PluginHost, type PluginHostOptions } from "./plugin-host.ts";

export interface StartPluginsOptions {
  sources: readonly string[];
  watch: boolean;
  registry: ToolRegistry;
  tools: ToolHost;
  log: Logger;
  onToolsChanged(): void;
  onEvent?: PluginHostOptions["onEvent"];
}

export async function startPlugins(
  runtime: Pick<Runtime, "fs" | "paths" | "plugins">,
  opts: StartPluginsOptions,
): Promise<PluginHost | undefined> {
  if (opts.sources.length === 0) {
    if (opts.watch) opts.log.warn("--plugin-watch without --plugin: nothing to watch");
    return undefined;
  }
  if (runtime.plugins === undefined) throw new BridgeError("startup_failed", "this runtime cannot load plugins (--plugin)");
  const host = new PluginHost({
    sources: opts.sources,
    watch: opts.watch,
    fs: runtime.fs,
    importer: runtime.plugins,
    cwd: runtime.paths.cwd,
    workspaceFolders: [...opts.tools.env.fs.folders],
    registry: opts.registry,
    settings: opts.tools.env.settings,
    makeContext: (scope) => toolContext(opts.tools, scope),
    log: opts.log,
    onToolsChanged: opts.onToolsChanged,
    ...(opts.onEvent && { onEvent: opts.onEvent }),
  });
  await host.start();
  return host;
}

/** The registry as tools see it, with the plugins' status for getToolCapabilities. */
export function withPluginStatus(registry: ToolRegistry, status: () => readonly PluginStatus[]): ToolCatalog {
  return { list: () => registry.list(), offByConfiguration: () => registry.offByConfiguration(), plugins: status };
}
