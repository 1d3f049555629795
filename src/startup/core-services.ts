// What a bridge runs before it serves anyone: the workspace jail, the tool registries, the VS Code
// extension client, the event bus, the language servers (started on first use), monitoring, Claude
// Code tasks and their automation, and the tools' environment. A failure part way stops what had
// started; the bridge stops the rest in its own shutdown.
import type { Runtime } from "../ports/runtime.ts";
import type { BridgeConfig } from "../config/schema.ts";
import { BridgeError, errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import type { Logger } from "../log.ts";
import { createWorkspace, type Workspace } from "../security/jail/workspace-jail.ts";
import { createEventBus, type EventBus } from "../capabilities/events/event-bus.ts";
import type { DoctorCheck } from "../capabilities/activity/bridge-monitor.ts";
import { ExtensionClient } from "../extension/extension-client.ts";
import { forwardExtensionEvents } from "../extension/extension-bus.ts";
import { IdeLinkHub } from "../transports/ws/ide-link-hub.ts";
import { configuredServers } from "../lsp/configured-servers.ts";
import { createLspService } from "../lsp/lsp-service.ts";
import type { LspService } from "../lsp/lsp-service-types.ts";
import { createWorkspaceFs } from "../workspace/workspace-fs.ts";
import { ToolRegistry } from "../tools/platform/registry.ts";
import { createToolEnvironment, type ToolHost, toolContext } from "../tools/platform/tool-environment.ts";
import type { PluginStatus } from "../capabilities/context.ts";
import { withPluginStatus } from "../plugins/start-plugins.ts";
import { withIdeLink } from "../tools/platform/toolset.ts";
import { lazyToolsets, type LazyToolsets } from "./lazy-toolsets.ts";
import { parseManifest } from "./tool-manifest.ts";
import { TOOL_LINES, TOOLSET_PURPOSES } from "./tool-manifest.generated.ts";
import { TOOLSET_LOADERS } from "./toolset-loaders.ts";
import { PACKAGE_VERSION } from "../version.ts";
import { startMonitoring, type Monitoring, type MonitoringOptions } from "../dashboard/monitoring.ts";
import { openClaudeTasks } from "../services/claude-tasks/open-claude-tasks.ts";
import type { ClaudeOrchestrator } from "../services/claude-tasks/orchestrator.ts";
import { startAutomation, type Automation } from "../services/automation/start-automation.ts";
import type { BridgeLaunch } from "../capabilities/child-bridges.ts";

const MIB = 1024 * 1024;
/**
 * How long after it serves the bridge starts followCommits: its git spawn, done at once, came before
 * the first request's answer and delayed it by a tenth of a start (bench/startup.mjs).
 */
export const FOLLOW_COMMITS_AFTER_MS = 1_000;

export interface CoreServices {
  workspace: Workspace;
  maxResultChars: number;
  registry: ToolRegistry;
  /** The built-in toolsets, listed from the tool manifest and loaded on first use. */
  builtIn: LazyToolsets;
  /** Claude Code's IDE link: its own registry (no --profile: it takes any number of tools) and hub. */
  ideLink: { registry: ToolRegistry; hub: IdeLinkHub };
  extension: ExtensionClient;
  events: EventBus;
  lsp: LspService;
  monitoring: Monitoring;
  claudeTasks: ClaudeOrchestrator;
  automation: Automation;
  tools: ToolHost;
  /** Starts following the repository's commits (automation's onGitCommit); once the bridge serves. */
  followCommits(): void;
}

/** What monitoring reads of the serving bridge, once it serves (the port bound, its socket sessions). */
export interface ServingState extends Pick<MonitoringOptions, "websocket" | "graceEnds"> {
  port(): number;
  /** The plugins loaded so far, for getToolCapabilities. */
  plugins(): readonly PluginStatus[];
}

export async function startCoreServices(
  runtime: Runtime,
  config: BridgeConfig,
  opts: {
    log: Logger;
    startedAt: number;
    serving: ServingState;
    doctor?: (signal: AbortSignal) => Promise<DoctorCheck[]>;
    bridgeCommand?: BridgeLaunch;
  },
): Promise<CoreServices> {
  const { log, serving } = opts;
  const workspace = await createWorkspace(runtime.fs, {
    root: config.workspace,
    folders: config.workspaceFolders,
    allowGitDirWrites: config.allowGitDirWrites,
    allowVSCodeDirWrites: config.allowVSCodeDirWrites,
  }).catch((err: unknown) => {
    throw new BridgeError("startup_failed", `workspace ${config.workspace}: ${errorMessage(err)}`, { cause: err });
  });
  const maxResultChars = config.maxResultSizeKb * 1024;
  const selection = {
    slim: config.slim,
    maxResultChars,
    toolsets: config.toolsets,
    excludeToolsets: config.excludeToolsets,
    profile: config.profile,
  };
  const builtIn = lazyToolsets(parseManifest(TOOLSET_PURPOSES, TOOL_LINES), { loaders: TOOLSET_LOADERS, log });
  const registry = new ToolRegistry(builtIn.toolsets, selection);
  builtIn.attach(registry);
  const extension = new ExtensionClient({
    bridgeVersion: PACKAGE_VERSION,
    workspace: workspace.root,
    log: (level, message, fields) => (level === "warn" ? log.warn(message, fields) : log.info(message, fields)),
  });
  const ideLink = {
    registry: new ToolRegistry(withIdeLink(builtIn.ideLink, builtIn.toolsets), { ...selection, profile: undefined }),
    hub: new IdeLinkHub(extension),
  };
  builtIn.attach(ideLink.registry);
  const events = createEventBus((name, err) => log.error(`a subscriber of ${name} failed`, { error: errorMessage(err) }));
  // --verbose: every tool call, with how it ended (never its arguments or what it returned).
  events.subscribe("tool.called", (call) => log.debug("tool call", call));
  // VS Code's saves and debug sessions, for automation's onFileSave and onDebugSession.
  forwardExtensionEvents(extension, { events, root: workspace.root });
  // Servers start on first use; the watcher and the idle timer with the first server.
  const lsp = createLspService({
    runtime,
    fs: createWorkspaceFs(runtime.fs, workspace),
    specs: configuredServers(config.lsp),
    maxMemoryBytes: config.lspMemoryMb * MIB,
    maxServers: config.lspMaxServers,
    log: (level, message, data) => (level === "warning" ? log.warn(message, data) : log.info(message, data)),
  });
  const monitoring = startMonitoring({
    events,
    extension,
    lsp,
    toolsetOf: (tool) => registry.toolsets.find((set) => set.tools.some((t) => t.name === tool))?.name,
    identity: () => ({
      version: PACKAGE_VERSION,
      runtime: runtime.name,
      workspace: workspace.root,
      port: serving.port(),
      startedAt: opts.startedAt,
      tools: registry.size,
    }),
    websocket: serving.websocket,
    ...(serving.graceEnds && { graceEnds: serving.graceEnds }),
    ...(opts.doctor && { doctor: opts.doctor }),
  });
  const claudeTasks = await openClaudeTasks(runtime, {
    config: config.automation,
    root: workspace.root,
    stateDir: lockDir(runtime),
    passEnv: config.passEnv,
    events,
    log,
  });
  const automation = await startAutomation(runtime, {
    policyPath: config.automation.policyPath,
    bus: events,
    tasks: claudeTasks,
    log,
    root: workspace.root,
    activity: monitoring.monitor.activity,
    lsp,
    // Asked when a task calls a tool, so plugin tools registered later count too.
    bridgeReadOnly: (tool) => registry.get(tool)?.annotations.readOnlyHint === true,
  }).catch(async (err: unknown) => {
    // A policy that failed to load started nothing of its own: what started before it is stopped.
    monitoring.stop();
    await claudeTasks.stop();
    throw err;
  });
  const tools = createToolEnvironment(runtime, {
    lsp,
    claudeTasks,
    workspace,
    settings: {
      maxResultChars,
      timeoutMs: config.timeoutMs,
      slim: config.slim,
      allowPushToMain: config.allowPushToMain,
      allowGitHooks: config.allowGitHooks,
      allowCommands: config.allowCommands,
      allowPrivateHttp: config.allowPrivateHttp,
      vscodeAllowCommands: config.vscodeAllowCommands,
      vscodeAllowTasks: config.vscodeAllowTasks,
      passEnv: config.passEnv,
      stagedBytes: { session: config.maxSessionStagedMb * MIB, bridge: config.maxStagedMb * MIB },
    },
    catalog: {
      ...withPluginStatus(registry, serving.plugins),
      automation: () => ({ policy: automation.engine !== undefined, ...automation.status() }),
    },
    events,
    extension,
    monitor: monitoring.monitor,
    childBridges: { launch: opts.bridgeCommand, spawnRoots: config.spawnRoots },
  });
  let following = false;
  // Off the start-up path: finding the repository spawns git, and a spawn before the bridge listens
  // was a tenth of its start-up (bench/startup-profile.mjs).
  const followCommits = () => {
    if (following) return;
    following = true;
    void automation
      .followCommits((scope) => toolContext(tools, scope))
      .catch((err: unknown) => log.warn("commits made outside the bridge are not seen", { error: String(err) }));
  };
  return {
    workspace,
    maxResultChars,
    registry,
    builtIn,
    ideLink,
    extension,
    events,
    lsp,
    monitoring,
    claudeTasks,
    automation,
    tools,
    followCommits,
  };
}
