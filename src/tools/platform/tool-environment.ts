// The one factory of tool capabilities, used by the bridge and by every test (so tests exercise
// the real jail and the real ctx.fs, never a hand-made context).
import type { CallOrigin, EventPublisher } from "../../capabilities/events/event-bus.ts";
import { createCommandGuard, type CommandGuard } from "../../capabilities/exec/command-guard.ts";
import { createExec } from "../../capabilities/exec/exec.ts";
import { GitOpeningMemo } from "../../capabilities/exec/git-opening-memo.ts";
import { createHttpClient } from "../../capabilities/http/http-client.ts";
import type { LspService } from "../../lsp/lsp-service.ts";
import { noLanguageServers } from "../../lsp/no-language-servers.ts";
import type { DebugEngine } from "../../dap/debug-engine.ts";
import type { Runtime } from "../../ports/runtime.ts";
import type { Workspace } from "../../security/jail/workspace-jail.ts";
import { ToolsetStates } from "../../capabilities/toolset-state.ts";
import { createWorkspaceFs } from "../../workspace/workspace-fs.ts";
import type { CallScope, ExtensionLink, ToolCatalog, ToolContext, ToolEnvironment, ToolSettings } from "../../capabilities/context.ts";
import type { BridgeMonitor } from "../../capabilities/activity/bridge-monitor.ts";
import { probeReadiness } from "./probe-readiness.ts";
import { createProbes } from "../../capabilities/probes.ts";
import { ExtensionClient } from "../../extension/extension-client.ts";
import { PACKAGE_VERSION } from "../../version.ts";
import type { ClaudeTasks } from "../../capabilities/claude/claude-tasks.ts";
import { ClaudeOrchestrator } from "../../services/claude-tasks/orchestrator.ts";
import { ActiveFolders } from "../../capabilities/active-folder.ts";
import { defineToolsetState } from "../../capabilities/toolset-state.ts";
import { type BridgeLaunch, ChildBridges } from "../../capabilities/child-bridges.ts";

export interface ToolEnvironmentOptions {
  workspace: Workspace;
  settings: ToolSettings;
  catalog: ToolCatalog;
  events: EventPublisher;
  /** The bridge's extension client; without it, one no extension ever connects to. */
  extension?: ExtensionLink;
  /** The bridge's language servers; without them LSP tools answer that none run. */
  lsp?: LspService;
  /** The bridge's activity log and sessions, for the bridge's own tools. */
  monitor?: BridgeMonitor;
  /** The bridge's Claude Code tasks; without them the task tools answer that no driver is configured. */
  claudeTasks?: ClaudeTasks;
  /** spawnWorkspace's children: how to start a bridge, and the folders it may serve (--spawn-root). */
  childBridges?: { launch: BridgeLaunch | undefined; spawnRoots: readonly string[] };
}

/** What the factory holds: the environment tools see, and what only it may use to build a call's context. */
export interface ToolHost {
  readonly env: ToolEnvironment;
  readonly runtime: Pick<Runtime, "fs" | "which" | "spawn" | "env" | "paths" | "resolveHost" | "fetchPinned"> &
    Partial<Pick<Runtime, "languageServers">>;
  /** runCommand's allowlist and executable identity check, built once from --allow-command. */
  readonly commands: CommandGuard;
  /** What the toolsets keep between calls; the bridge releases a session's part when it ends. */
  readonly states: ToolsetStates;
  /** Git openings' answers, kept while the files they depend on are unchanged (git-opening-memo.ts). */
  readonly gitOpenings: GitOpeningMemo;
}

export function createToolEnvironment(runtime: ToolHost["runtime"], opts: ToolEnvironmentOptions): ToolHost {
  const fs = createWorkspaceFs(runtime.fs, opts.workspace);
  const commands = createCommandGuard(runtime, {
    allowCommands: opts.settings.allowCommands ?? [],
    passEnv: opts.settings.passEnv ?? [],
    allowPrivateNetwork: opts.settings.allowPrivateHttp === true,
  });
  const states = new ToolsetStates();
  // Registered as a state so a session's end and the bridge's stop release its choice.
  const activeFolders = states.get(
    defineToolsetState("active-folder", () => new ActiveFolders(runtime.fs, opts.workspace, { home: runtime.paths.home })),
  );
  const childBridges = states.get(
    defineToolsetState("child-bridges", () => new ChildBridges(runtime, opts.childBridges ?? { launch: undefined, spawnRoots: [] })),
  );
  return {
    runtime,
    commands,
    states,
    gitOpenings: new GitOpeningMemo({ fs: runtime.fs }),
    env: {
      activeFolders,
      childBridges,
      fs,
      settings: opts.settings,
      probes: createProbes(runtime, probeReadiness({ runtime, fs, guard: commands })),
      extension:
        opts.extension ?? new ExtensionClient({ bridgeVersion: PACKAGE_VERSION, workspace: opts.workspace.root, log: () => undefined }),
      catalog: opts.catalog,
      events: opts.events,
      lsp: opts.lsp ?? noLanguageServers(),
      debug: lazyDebugEngine(runtime, { passEnv: opts.settings.passEnv ?? [] }),
      ...(opts.monitor && { monitor: opts.monitor }),
      claudeTasks: opts.claudeTasks ?? new ClaudeOrchestrator({ driver: undefined, cwd: opts.workspace.root, concurrency: 1 }),
    },
  };
}

/**
 * The debug engine, imported on its first use: with its adapters' specs and the Node inspector's
 * client it is one of the larger modules, which no bridge needs before its first debug call.
 */
function lazyDebugEngine(runtime: ToolHost["runtime"], opts: { passEnv: readonly string[] }): ToolEnvironment["debug"] {
  let engine: Promise<DebugEngine> | undefined;
  const load = () => (engine ??= import("../../dap/debug-engine.ts").then((m) => new m.DebugEngine(runtime, opts)));
  return {
    adapters: async () => (await load()).adapters(),
    adaptersWithin: async (ms) => (await load()).adaptersWithin(ms),
    adapter: async (language) => (await load()).adapter(language),
    start: async (start) => (await load()).start(start),
    attachProcess: async (attach) => (await load()).attachProcess(attach),
    attach: async (attach) => (await load()).attach(attach),
    processFacts: async (pid) => (await load()).processFacts(pid),
    tracing: async () => (await load()).tracing(),
    isGoProgram: async (path) => (await load()).isGoProgram(path),
  };
}

/**
 * One call's context: named fields only, so nothing of the host reaches a tool. `exec` and `http`
 * are made on first use: most calls use neither, and building them is a measurable part of a
 * quick call's cost.
 */
export function toolContext(host: ToolHost, call: CallScope): ToolContext {
  const { env } = host;
  const windowFolders = () => (env.extension.connected ? env.extension.state.folders.map((f) => f.path) : []);
  const fs = env.activeFolders?.fsOf(call.session, windowFolders) ?? env.fs;
  let exec: ToolContext["exec"] | undefined;
  let http: ToolContext["http"] | undefined;
  return {
    fs,
    settings: env.settings,
    probes: env.probes,
    extension: env.extension,
    catalog: env.catalog,
    events: { publish: (name, event) => env.events.publish(name, event, callOrigin(call)) },
    lsp: env.lsp,
    debug: env.debug,
    ...(env.monitor && { monitor: env.monitor }),
    claudeTasks: env.claudeTasks,
    ...(env.activeFolders && { activeFolders: env.activeFolders }),
    ...(env.childBridges && { childBridges: env.childBridges }),
    state: (key) => host.states.get(key),
    get exec() {
      exec ??= createExec(
        { runtime: host.runtime, fs, guard: host.commands, gitHooks: env.settings.allowGitHooks === true, gitOpenings: host.gitOpenings },
        { declared: call.executables, signal: call.signal },
      );
      return exec;
    },
    get http() {
      http ??= createHttpClient({ runtime: host.runtime, allowPrivate: env.settings.allowPrivateHttp === true }, call.signal);
      return http;
    },
    session: call.session,
    signal: call.signal,
    ...(call.deadline === undefined ? {} : { deadline: call.deadline }),
    progress: call.progress,
    log: call.log,
  };
}

function callOrigin(call: CallScope): CallOrigin {
  return { session: call.session, ...(call.toolUseId === undefined ? {} : { toolUseId: call.toolUseId }) };
}
