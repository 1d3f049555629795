// The bridge's plugins (--plugin, --plugin-watch): loads each into the registry as its own toolset,
// keeps what getToolCapabilities, doctor and the log say about them, and with --plugin-watch reloads
// a plugin 300 ms after its files stop changing. Each version runs in a worker of its own
// (plugin-worker-client.ts). A reload is loaded whole in a new worker before it replaces the running
// version (src/tools/platform/registry.ts swaps it in at once), and the old worker ends when its calls
// in flight do; a broken one leaves the last good version serving and says why. One host per bridge,
// stopped with it.
import { errorMessage } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { CallScope, PluginStatus, ToolContext, ToolSettings } from "../capabilities/context.ts";
import type { Fs, Watcher } from "../ports/fs.ts";
import type { PluginImporter } from "../ports/plugin-import.ts";
import type { Tool } from "../tools/platform/define-tool.ts";
import type { ToolRegistry } from "../tools/platform/registry.ts";
import { PLUGIN_TOOLSET_PREFIX } from "../tools/platform/instructions.ts";
import { defineToolset, type Toolset } from "../tools/platform/toolset.ts";
import { PACKAGE_VERSION } from "../version.ts";
import type { PluginManifest } from "./manifest.ts";
import type { PluginLogger } from "./plugin-api.ts";
import { loadPlugin, MAX_TOOLS_PER_PLUGIN, REGISTER_TIMEOUT_MS, resolvePluginDir } from "./plugin-loader.ts";
import { pluginTool } from "./plugin-tool.ts";
import { PluginVersion } from "./plugin-worker-client.ts";

/** Changes that are not the plugin's code: its dependencies and git's folder. */
const IGNORED_CHANGES = /(^|\/)(node_modules|\.git)(\/|$)/;

/** A plugin's worker's heap limit (Node; Bun and Deno set none): ample for tools, and far below what would stop the bridge. */
export const PLUGIN_MEMORY_LIMIT_MB = 512;

/** Editors write a file in bursts (truncate, write, rename): one reload after the last event. */
export const RELOAD_DEBOUNCE_MS = 300;

export interface PluginHostOptions {
  sources: readonly string[];
  watch: boolean;
  fs: Pick<Fs, "readTextFile" | "realpath" | "stat" | "watch">;
  importer: PluginImporter;
  cwd: string;
  workspaceFolders: readonly string[];
  registry: Pick<ToolRegistry, "replaceToolset">;
  settings: ToolSettings;
  /** The one factory of tool contexts: what register(ctx) gets is cut from it. */
  makeContext(scope: CallScope): ToolContext;
  log: Logger;
  /** A reload changed the tool list (sessions are told with notifications/tools/list_changed). */
  onToolsChanged(): void;
  /** Loads, reloads and failures, for the bridge's activity log (short facts, never a tool's arguments). */
  onEvent?(
    event: "plugin.loaded" | "plugin.reloaded" | "plugin.failed" | "plugin.tool_failed" | "plugin.restarted",
    detail: Record<string, string>,
  ): void;
  /** Each worker's heap limit in MB (default PLUGIN_MEMORY_LIMIT_MB), where the runtime enforces one. */
  memoryLimitMb?: number;
}

interface Running {
  manifest: PluginManifest;
  toolset: Toolset;
  tools: readonly Tool[];
  version: PluginVersion;
  /** Aborted when this version is replaced or the bridge stops (its register-time http). */
  lifetime: AbortController;
}

interface Plugin {
  readonly source: string;
  dir?: string;
  /** The manifest last read, loaded or not (names a plugin that failed after its manifest was read). */
  manifest?: PluginManifest;
  running?: Running;
  error?: string;
  lastToolFailure?: { tool: string; error: string };
  watcher?: Watcher;
  timer?: ReturnType<typeof setTimeout>;
  /** Reloads run one at a time, in order. */
  queue: Promise<void>;
}

export class PluginHost {
  private readonly plugins: Plugin[];
  private readonly settings: Readonly<ToolSettings>;
  private stopped = false;
  /** The registry of read-only clients (tokens with mcp:read alone): it gets each plugin's read-only tools. */
  private readOnlyRegistry: Pick<ToolRegistry, "replaceToolset"> | undefined;

  constructor(private readonly opts: PluginHostOptions) {
    this.plugins = opts.sources.map((source) => ({ source, queue: Promise.resolve() }));
    this.settings = Object.freeze({ ...opts.settings });
  }

  /** Loads every plugin once (a failure is that plugin's status, never a throw), then starts the watches. */
  async start(): Promise<void> {
    for (const plugin of this.plugins) {
      const found = await resolvePluginDir(plugin.source, this.loaderDeps());
      if ("error" in found) {
        this.fail(plugin, found.error);
        continue;
      }
      plugin.dir = found.dir;
      await this.load(plugin, { initial: true });
      if (this.opts.watch) this.watch(plugin, found.dir);
    }
  }

  status(): readonly PluginStatus[] {
    return this.plugins.map((p) => {
      const manifest = p.running?.manifest ?? p.manifest;
      return {
        name: manifest?.name ?? p.source,
        source: p.source,
        ...(manifest === undefined ? {} : { version: manifest.version }),
        state: p.running === undefined ? "failed" : "loaded",
        tools: (p.running?.tools ?? []).map((t) => t.name),
        ...(p.error === undefined ? {} : { error: p.error }),
        ...(p.lastToolFailure === undefined ? {} : { lastToolFailure: { ...p.lastToolFailure } }),
      };
    });
  }

  /**
   * Offers the plugins' tools that declare readOnlyHint: true (and only those) in `registry`, now
   * and after every reload: remote clients whose token may only read see them beside the built-in
   * read-only tools.
   */
  mirrorReadOnly(registry: Pick<ToolRegistry, "replaceToolset">): void {
    this.readOnlyRegistry = registry;
    for (const plugin of this.plugins) if (plugin.running !== undefined) this.mirror(plugin, plugin.running.toolset);
  }

  /** Waits for reloads already queued (tests, and stop). */
  async settled(): Promise<void> {
    await Promise.all(this.plugins.map((p) => p.queue));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const plugin of this.plugins) {
      plugin.watcher?.close();
      clearTimeout(plugin.timer);
    }
    await this.settled();
    for (const plugin of this.plugins) plugin.running?.lifetime.abort(new Error("the bridge stopped"));
    await Promise.all(this.plugins.map((p) => p.running?.version.stop()));
  }

  private watch(plugin: Plugin, dir: string): void {
    try {
      plugin.watcher = this.opts.fs.watch(
        dir,
        (event) => {
          if (event.name !== undefined && IGNORED_CHANGES.test(event.name)) return;
          clearTimeout(plugin.timer);
          plugin.timer = setTimeout(() => {
            plugin.queue = plugin.queue.then(() => this.load(plugin, { initial: false }));
          }, RELOAD_DEBOUNCE_MS);
        },
        {
          recursive: true,
          onError: (err) => this.opts.log.warn(`plugin ${plugin.source}: watching stopped`, { error: errorMessage(err) }),
        },
      );
    } catch (err) {
      this.opts.log.warn(`plugin ${plugin.source}: cannot watch ${dir}; edits need a restart`, { error: errorMessage(err) });
    }
  }

  private async load(plugin: Plugin, opts: { initial: boolean }): Promise<void> {
    if (this.stopped || plugin.dir === undefined) return;
    const lifetime = new AbortController();
    const outcome = await loadPlugin(plugin.dir, {
      ...this.loaderDeps(),
      version: (manifest, entry) => this.version(plugin, { manifest, entry, lifetime }),
      toolOf: (definition, load) => this.toolOf(plugin, definition, load),
    });
    if (this.stopped) {
      lifetime.abort();
      if (outcome.ok) await outcome.version.stop();
      return;
    }
    if (plugin.running === undefined && outcome.manifest !== undefined) plugin.manifest = outcome.manifest;
    const label = outcome.manifest?.name ?? plugin.source;
    if (!outcome.ok) {
      lifetime.abort();
      return this.fail(plugin, outcome.error, label);
    }
    const toolset = defineToolset({
      name: `${PLUGIN_TOOLSET_PREFIX}${outcome.manifest.toolNamePrefix.toLowerCase().replace(/_/g, "-")}`,
      purpose: outcome.manifest.description ?? `tools of the ${outcome.manifest.name} plugin`,
      tools: outcome.tools,
    });
    try {
      this.opts.registry.replaceToolset(plugin.source, toolset);
    } catch (err) {
      lifetime.abort();
      await outcome.version.stop();
      return this.fail(plugin, `${errorMessage(err)}; the plugin is not loaded`, label);
    }
    plugin.running?.lifetime.abort(new Error("the plugin was reloaded"));
    plugin.running?.version.retire();
    plugin.running = { manifest: outcome.manifest, toolset, tools: outcome.tools, version: outcome.version, lifetime };
    this.mirror(plugin, toolset);
    plugin.error = undefined;
    const names = outcome.tools.map((t) => t.name);
    this.opts.log.info(`plugin ${label} ${outcome.manifest.version} ${opts.initial ? "loaded" : "reloaded"}: ${names.length} tool(s)`, {
      tools: names,
    });
    this.opts.onEvent?.(opts.initial ? "plugin.loaded" : "plugin.reloaded", {
      plugin: label,
      version: outcome.manifest.version,
      tools: String(names.length),
    });
    if (!opts.initial) this.opts.onToolsChanged();
  }

  private mirror(plugin: Plugin, toolset: Toolset): void {
    const target = this.readOnlyRegistry;
    if (target === undefined) return;
    const tools = toolset.tools.filter((t) => t.annotations.readOnlyHint === true);
    try {
      target.replaceToolset(plugin.source, tools.length === 0 ? undefined : { ...toolset, tools });
    } catch (err) {
      // The same tools passed the full registry's checks; a refusal here leaves read-only clients without them.
      target.replaceToolset(plugin.source, undefined);
      this.opts.log.warn(`plugin ${toolset.name}: not offered to read-only clients`, { error: errorMessage(err) });
    }
  }

  /** Records why a load failed; a version already serving keeps serving. */
  private fail(plugin: Plugin, error: string, label = plugin.source): void {
    plugin.error = plugin.running === undefined ? error : `${error} (a reload failed; the version loaded before still serves)`;
    this.opts.log.error(`plugin ${label}: ${plugin.error}`);
    this.opts.onEvent?.("plugin.failed", { plugin: label, error: plugin.error });
  }

  private loaderDeps() {
    return {
      fs: this.opts.fs,
      importer: this.opts.importer,
      cwd: this.opts.cwd,
      workspaceRoot: this.opts.workspaceFolders[0] ?? this.opts.cwd,
    };
  }

  /** A version of the plugin in a worker; register(ctx)'s fs, lsp and http run with a context cut from the one factory. */
  private version(plugin: Plugin, load: { manifest: PluginManifest; entry: string; lifetime: AbortController }): PluginVersion {
    const { manifest, entry, lifetime } = load;
    const registerContext = this.opts.makeContext({
      session: `plugin:${manifest.name}`,
      executables: [],
      signal: lifetime.signal,
      progress: () => undefined,
      // Only fs, lsp and http are served from this context; the plugin logs through its own logger.
      log: () => undefined,
    });
    return new PluginVersion({
      importer: this.opts.importer,
      memoryLimitMb: this.opts.memoryLimitMb ?? PLUGIN_MEMORY_LIMIT_MB,
      load: {
        entry,
        plugin: { name: manifest.name, version: manifest.version, toolNamePrefix: manifest.toolNamePrefix },
        bridgeVersion: PACKAGE_VERSION,
        workspaceFolders: this.opts.workspaceFolders,
        settings: this.settings,
        maxTools: MAX_TOOLS_PER_PLUGIN,
      },
      registerContext,
      log: pluginLogger(this.opts.log, manifest.name),
      loadTimeoutMs: REGISTER_TIMEOUT_MS,
      onRestart: (reason, tool) => {
        const error = `${reason}; a fresh worker serves its later calls`;
        if (tool !== undefined) plugin.lastToolFailure = { tool, error };
        this.opts.log.warn(`plugin ${manifest.name}: worker restarted`, { reason, ...(tool === undefined ? {} : { tool }) });
        this.opts.onEvent?.("plugin.restarted", { plugin: manifest.name, ...(tool === undefined ? {} : { tool }), error });
      },
    });
  }

  private toolOf(plugin: Plugin, definition: Record<string, unknown>, load: { manifest: PluginManifest; version: PluginVersion }): Tool {
    const { manifest, version } = load;
    const name = String(definition.name);
    return pluginTool(
      // The worker sent "function" where the handler is one; the call goes to the worker.
      {
        ...definition,
        handler:
          definition.handler === "function" ? (input: unknown, ctx: ToolContext) => version.call(name, input, ctx) : definition.handler,
      },
      {
        plugin: manifest.name,
        prefix: manifest.toolNamePrefix,
        onFailure: (tool, error) => {
          plugin.lastToolFailure = { tool, error };
          this.opts.log.error(`plugin ${manifest.name}: tool ${tool} failed`, { error });
          this.opts.onEvent?.("plugin.tool_failed", { plugin: manifest.name, tool, error });
        },
      },
    );
  }
}

function pluginLogger(log: Logger, name: string): PluginLogger {
  const say = (level: "debug" | "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) =>
    log[level](`plugin ${name}: ${String(message)}`, fields);
  return Object.freeze({ debug: say("debug"), info: say("info"), warn: say("warn"), error: say("error") });
}
