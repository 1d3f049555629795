// Starts one bridge: workspace jail, tool registry (and plugins), MCP sessions, HTTP + WebSocket on one port,
// and the lock file Claude Code discovers it by. Returns a handle whose stop() undoes it all.
// Over 400 lines for a reason: it is the composition root, and the start and stop order of every
// subsystem reads best in one place.
import type { Runtime } from "./ports/runtime.ts";
import { createApp } from "./app.ts";
import type { BridgeConfig } from "./config/schema.ts";
import { BridgeError, errorMessage } from "./errors.ts";
import { startIdleExit, type IdleExit } from "./idle-exit.ts";
import { cleanStaleLocks, lockDir, writeLockFile, type LockFileHandle } from "./lock/lock-file.ts";
import { describeBridges, otherBridgesOn } from "./lock/other-bridges.ts";
import { createLogger, type Logger } from "./log.ts";
import { McpSession } from "./mcp/sessions/session.ts";
import { cleanStaleCheckpoints, readCheckpoint, SessionCheckpoint } from "./mcp/sessions/session-checkpoint.ts";
import { SessionStore } from "./mcp/sessions/session-store.ts";
import { SubscriptionHub } from "./mcp/subscriptions/subscription-hub.ts";
import { TaskStore } from "./mcp/tasks/task-store.ts";
import { openRemoteAccess, type RemoteAccess } from "./security/auth/oauth/remote-access.ts";
import { remoteEnabled } from "./config/remote.ts";
import type { Served } from "./ports/net.ts";
import { documentFetcher, readOnly, readTls, remoteHostPolicy, urlHost } from "./remote-setup.ts";
import { createWorkspace } from "./security/jail/workspace-jail.ts";
import { randomToken } from "./security/auth/tokens.ts";
import { createEventBus } from "./capabilities/events/event-bus.ts";
import type { CallScope } from "./capabilities/context.ts";
import { ExtensionClient } from "./extension/extension-client.ts";
import { ideLinkToolsets } from "./tools/ide-link-toolsets.ts";
import { IdeLinkHub } from "./transports/ws/ide-link-hub.ts";
import { ToolListAnnouncer } from "./tools/platform/registry-announcer.ts";
import { configuredServers } from "./lsp/configured-servers.ts";
import { createLspService } from "./lsp/lsp-service.ts";
import { languageServerHealth } from "./lsp/lsp-health.ts";
import { createWorkspaceFs } from "./workspace/workspace-fs.ts";
import { credentialBudget } from "./mcp/limits/rate-budget.ts";
import { takeFromAll } from "./mcp/limits/token-bucket.ts";
import { buildInstructions } from "./tools/platform/instructions.ts";
import { ToolRegistry } from "./tools/platform/registry.ts";
import { createToolEnvironment, toolContext } from "./tools/platform/tool-environment.ts";
import type { PluginHost } from "./plugins/plugin-host.ts";
import { startPlugins, withPluginStatus } from "./plugins/start-plugins.ts";
import { TOOLSETS } from "./tools/toolsets.ts";
import { PromptCatalog } from "./prompts/prompt-catalog.ts";
import { PROMPTS } from "./prompts/prompts.ts";
import { RecentTests } from "./prompts/recent-tests.ts";
import { ResourceWatch } from "./resources/resource-watch.ts";
import { SKILLS } from "./skills/catalog.ts";
import { skillPrompts } from "./skills/skill-prompts.ts";
import { StreamableHttpTransport } from "./transports/http/streamable-http.ts";
import { PACKAGE_VERSION } from "./version.ts";
import { persistActivity, type ActivityFile } from "./capabilities/activity/activity-file.ts";
import type { DoctorCheck } from "./capabilities/activity/bridge-monitor.ts";
import { startMonitoring } from "./dashboard/monitoring.ts";
import { lazyDashboard } from "./dashboard/lazy-routes.ts";
import { openClaudeTasks } from "./services/claude-tasks/open-claude-tasks.ts";
import { startAutomation } from "./services/automation/start-automation.ts";

export interface RunningBridge {
  readonly port: number;
  readonly token: string;
  readonly url: string;
  /** With remote access: the public MCP endpoint, `<issuer>/mcp`. */
  readonly remoteUrl?: string;
  readonly lockPath: string;
  stop(): Promise<void>;
}

export interface StartBridgeOptions {
  logger?: Logger;
  /**
   * Ends the process (the CLI's shutdown: stop handlers, then exit), for `--idle-timeout` and
   * `POST /shutdown`. Without it neither can stop the bridge.
   */
  exit?(code: number): void;
  /** The command a client runs to reach this bridge, e.g. `npx -y claude-ide-bridge shim`, for the start-up line. */
  shimCommand?: string;
  /** The `doctor` command's checks for this bridge's workspace (bridgeDoctor runs them); without it bridgeDoctor says it cannot. */
  doctor?: (signal: AbortSignal) => Promise<DoctorCheck[]>;
}

const MIB = 1024 * 1024;

export async function startBridge(runtime: Runtime, config: BridgeConfig, opts: StartBridgeOptions = {}): Promise<RunningBridge> {
  const log = opts.logger ?? createLogger({ verbose: config.verbose, jsonl: config.jsonl });
  const startedAt = Date.now();
  const token = config.fixedToken ?? randomToken();
  const workspace = await createWorkspace(runtime.fs, {
    root: config.workspace,
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
  const registry = new ToolRegistry(TOOLSETS, selection);
  const extension = new ExtensionClient({
    bridgeVersion: PACKAGE_VERSION,
    workspace: workspace.root,
    log: (level, message, fields) => (level === "warn" ? log.warn(message, fields) : log.info(message, fields)),
  });
  const ideLink = {
    // No --profile here: the IDE link is Claude Code's, which takes any number of tools.
    registry: new ToolRegistry(ideLinkToolsets(TOOLSETS), { ...selection, profile: undefined }),
    hub: new IdeLinkHub(extension),
  };
  const events = createEventBus((name, err) => log.error(`a subscriber of ${name} failed`, { error: errorMessage(err) }));
  // --verbose: every tool call, with how it ended (never its arguments or what it returned).
  events.subscribe("tool.called", (call) => log.debug("tool call", call));
  // Servers start on first use; the watcher and the idle timer with the first server.
  const lsp = createLspService({
    runtime,
    fs: createWorkspaceFs(runtime.fs, workspace),
    specs: configuredServers(config.lsp),
    maxMemoryBytes: config.lspMemoryMb * 2 ** 20,
    maxServers: config.lspMaxServers,
    log: (level, message, data) => (level === "warning" ? log.warn(message, data) : log.info(message, data)),
  });
  let boundPort = 0;
  const monitoring = startMonitoring({
    events,
    extension,
    lsp,
    toolsetOf: (tool) => registry.toolsets.find((set) => set.tools.some((t) => t.name === tool))?.name,
    identity: () => ({
      version: PACKAGE_VERSION,
      runtime: runtime.name,
      workspace: workspace.root,
      port: boundPort,
      startedAt,
      tools: registry.size,
    }),
    // Read only once the bridge serves, when the store below exists.
    websocket: () => ({ active: sockets.active, inGrace: sockets.inGrace, graceMs: sockets.graceMs }),
    graceEnds: () => sockets.graceEnds(),
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
    catalog: withPluginStatus(registry, () => plugins?.status() ?? []),
    events,
    extension,
    monitor: monitoring.monitor,
  });
  // Sessions that hear notifications/tools/list_changed when a plugin reloads or VS Code comes or goes.
  const liveSessions = new Map<string, McpSession>();
  let toolList: ToolListAnnouncer | undefined;
  const plugins: PluginHost | undefined = await startPlugins(runtime, {
    sources: config.plugins,
    watch: config.pluginWatch,
    registry,
    tools,
    log,
    onEvent: (event, detail) => monitoring.monitor.activity.append({ source: "plugins", event, detail }),
    onToolsChanged: () => {
      instructions = buildInstructions(registry.toolsets, { root: workspace.root });
      for (const session of liveSessions.values()) session.notifyToolsListChanged();
      hub.publish({ kind: "toolsListChanged" });
      toolList?.alreadyTold();
    },
  });
  let instructions = buildInstructions(registry.toolsets, { root: workspace.root });
  const remote = config.remote;
  const remoteOn = remoteEnabled(remote);
  const tls = remote.tls && (await readTls(runtime, remote.tls));
  // Tokens with only mcp:read get sessions that know the read-only tools alone.
  const readRegistry = remoteOn ? new ToolRegistry(readOnly(TOOLSETS), { slim: config.slim, maxResultChars }) : undefined;
  if (readRegistry !== undefined) plugins?.mirrorReadOnly(readRegistry);
  const readInstructions = readRegistry && buildInstructions(readRegistry.toolsets, { root: workspace.root });
  const rateLimits = { requestsPerMinute: config.requestRateLimit, toolCallsPerMinute: config.toolRateLimit };
  // One token today, so one credential: every session shares its budget (src/mcp/limits/rate-budget.ts).
  const credential = credentialBudget(rateLimits);

  // MCP 2026-07-28: list changes reach every subscriptions/listen stream; long calls become tasks.
  const hub = new SubscriptionHub();
  const tasks = new TaskStore({ onChange: (taskId, task) => hub.publish({ kind: "task", taskId, task }) });
  const recentTests = new RecentTests();
  events.subscribe("test.run", (run) => recentTests.record(run));
  const watch = new ResourceWatch({
    fs: tools.env.fs,
    lsp,
    events,
    recentTests,
    terminalOutput: (id, { since, waitMs, signal }) =>
      extension.request("extension/terminalOutput", { id, waitMs, ...(since === undefined ? {} : { since }) }, { signal }),
  });
  // The tools and resources only VS Code can answer are listed while its extension is connected.
  toolList = new ToolListAnnouncer(readRegistry ? [registry, readRegistry] : [registry], {
    announce: () => {
      for (const session of liveSessions.values())
        if (session.registry === registry || session.registry === readRegistry) session.notifyToolsListChanged();
      hub.publish({ kind: "toolsListChanged" });
    },
  });
  const extensionPresence = () => {
    const { state } = extension.status();
    return state === "connected" || state === "not_answering";
  };
  // The start-up state is what every client's first tools/list sees: nothing to announce.
  toolList.extensionPresent(extensionPresence());
  toolList.alreadyTold();
  // 2026 clients hear of resource-list changes on their subscriptions/listen streams.
  watch.onListChanged(() => hub.publish({ kind: "resourcesListChanged" }));
  const stopPresence = extension.on((event) => {
    if (event.type === "push") return;
    toolList.extensionPresent(extensionPresence());
    watch.listChanged();
  });
  const content = {
    prompts: new PromptCatalog([...PROMPTS, ...skillPrompts(SKILLS)]),
    recentTests: () => recentTests.latest(),
    watch,
    skills: SKILLS,
  };
  const sessionOptions = {
    content,
    registry,
    logger: log,
    limits: { ...rateLimits, timeoutMs: config.timeoutMs, maxResultChars, pageSize: 200 },
    credential,
    events,
    hub,
    tasks,
    makeToolContext: (call: CallScope) => toolContext(tools, call),
    onClosed: (id: string) => {
      liveSessions.delete(id);
      tools.states.releaseSession(id);
      monitoring.closed(id);
    },
  };
  // A remote client granted only reading sees only the read-only tools, and instructions to match.
  const createSession = (opts: { readOnlyTools?: boolean; stateless?: boolean; transport?: "websocket" } = {}) => {
    const session = new McpSession({
      ...sessionOptions,
      instructions,
      ...(opts.readOnlyTools && readRegistry ? { registry: readRegistry, instructions: readInstructions ?? instructions } : {}),
      ...(opts.stateless ? { stateless: true } : {}),
    });
    if (!opts.stateless) liveSessions.set(session.id, session);
    // A stateless session lives for one request: the activity log records its calls, not the session.
    if (!opts.stateless) monitoring.opened(session.id, { transport: opts.transport ?? "http", clientName: () => session.clientInfo?.name });
    return session;
  };

  const http = new StreamableHttpTransport({
    createSession,
    createStatelessSession: () => createSession({ stateless: true }),
    admitUnbound: () => takeFromAll([credential.requests]),
    maxSessions: config.maxSessions,
    logger: log,
  });
  const readOnlyHttp = readRegistry
    ? new StreamableHttpTransport({
        createSession: () => createSession({ readOnlyTools: true }),
        createStatelessSession: () => createSession({ readOnlyTools: true, stateless: true }),
        admitUnbound: () => takeFromAll([credential.requests]),
        maxSessions: config.maxSessions,
        logger: log,
      })
    : undefined;
  const httpSessions = () => http.pool.size + (readOnlyHttp?.pool.size ?? 0);
  // Known before listening when given; with --tls-cert alone it is the bind address and the port bound.
  let issuer = remote.issuerUrl;
  let remoteAccess: Promise<RemoteAccess> | undefined;
  const openRemote = () =>
    (remoteAccess ??= openRemoteAccess({
      fs: runtime.fs,
      stateRoot: `${lockDir(runtime)}/oauth`,
      issuer: issuer ?? "",
      ownerToken: token,
      tokenTtlSeconds: remote.tokenTtlSeconds,
      fetchDocument: documentFetcher(runtime, remote),
      ...(remote.identityProvider === undefined ? {} : { identityProvider: remote.identityProvider }),
      log: (message, data) => log.info(`oauth: ${message}`, data),
    }));
  const hostPolicy = remoteHostPolicy(config.bind, remote);
  const sockets = new SessionStore({
    createSession: () => createSession({ transport: "websocket" }),
    graceMs: config.gracePeriodMs,
    maxSessions: config.maxWsSessions,
    logger: log,
  });
  let webSockets = 0;
  let serving = false;
  const dashboard = lazyDashboard({ token, monitor: monitoring.monitor, extension, lsp, ready: () => serving });
  const app = createApp({
    runtime,
    token,
    hostPolicy,
    http,
    ...(readOnlyHttp && {
      remote: {
        access: openRemote,
        prefix: remote.issuerUrl === undefined ? "" : new URL(remote.issuerUrl).pathname.replace(/\/+$/, ""),
        corsOrigins: remote.corsOrigins,
        readOnlyHttp,
        requiresWrite: (tool: string) => registry.get(tool)?.annotations.readOnlyHint === false,
      },
    }),
    sockets,
    extension,
    ideLink,
    dashboard,
    notify: (body) => automation.notify(body),
    logger: log,
    onWebSocketCount: (open) => {
      webSockets = open;
    },
    onShutdownRequest: opts.exit && (() => opts.exit?.(0)),
    health: () => ({
      status: "ok",
      version: PACKAGE_VERSION,
      runtime: runtime.name,
      uptimeMs: Date.now() - startedAt,
      workspace: workspace.root,
      connections: webSockets,
      activeSessions: sockets.active,
      sessionsInGrace: sockets.inGrace,
      gracePeriodMs: sockets.graceMs,
      httpSessions: httpSessions(),
      tools: registry.size,
      ...(plugins && { plugins: plugins.status() }),
      extensionConnected: extension.connected,
      extension: extension.status(),
      languageServers: languageServerHealth(lsp.status()),
    }),
  });

  const removed = await cleanStaleLocks(runtime);
  if (removed.length > 0) log.info(`removed ${removed.length} stale lock file(s)`, { removed });
  await checkOtherBridges(runtime, workspace.root, { exclusive: config.exclusive, log });
  // A restart on a fixed port gets its socket sessions back. Read now, restored only once the
  // port is ours: a port in use must say so first, not after "restored 1 session(s)", which would
  // read as a bridge that started.
  const checkpointed = config.port !== 0 ? await readCheckpoint(runtime, config.port, { logger: log }) : undefined;
  const served = await runtime.serve(app, { hostname: config.bind, port: config.port, ...(tls && { tls }) }).catch((err: unknown) => {
    sockets.closeAll();
    if (err instanceof BridgeError && err.code === "port_in_use") {
      throw new BridgeError(
        "port_in_use",
        `${err.message}; is a bridge already running there (claude-ide-bridge status)? Pick another --port, or --port 0 for a free one`,
        { cause: err },
      );
    }
    throw err;
  });
  // No request has been handled yet: this runs before the event loop delivers the first one.
  if (checkpointed !== undefined) {
    const restored = sockets.restore(checkpointed);
    if (restored > 0)
      log.info(`restored ${restored} session(s) from the checkpoint; they wait ${config.gracePeriodMs} ms for their clients`);
  }
  // With TLS the lock file, the shim and the CLI use a plain listener of their own on loopback.
  let local: Served = served;
  if (remoteOn) {
    issuer ??= `https://${urlHost(config.bind)}:${served.port}`;
    hostPolicy.extraOrigins.push(new URL(issuer).origin);
    try {
      await openRemote();
      if (tls) local = await runtime.serve(app, { hostname: "127.0.0.1", port: 0 });
    } catch (err) {
      sockets.closeAll();
      await served.close();
      throw err instanceof BridgeError ? err : new BridgeError("startup_failed", `remote access: ${errorMessage(err)}`, { cause: err });
    }
  }
  http.start();
  readOnlyHttp?.start();
  boundPort = local.port;
  monitoring.start();
  const activityFile: ActivityFile = await persistActivity(monitoring.monitor.activity, {
    fs: runtime.fs,
    dir: lockDir(runtime),
    port: local.port,
    onError: (message) => log.warn(`activity log: ${message}`),
  });
  const checkpoint = new SessionCheckpoint({ runtime, port: local.port, store: sockets, logger: log });
  checkpoint.start();
  void cleanStaleCheckpoints(runtime);

  // Registered before the lock file exists, so a SIGTERM at any moment from here on still
  // removes it (stop waits for a write in progress).
  let lockWrite: Promise<LockFileHandle> | undefined;
  let idle: IdleExit | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info("shutting down");
      serving = false;
      dashboard.close();
      idle?.stop();
      const lock = await lockWrite?.catch(() => undefined);
      await lock?.remove().catch((err: unknown) => log.warn("could not remove lock file", { error: errorMessage(err) }));
      http.stop();
      readOnlyHttp?.stop();
      // Stop accepting first: a client reconnecting during shutdown must not get a fresh session.
      if (local !== served) await local.close();
      await served.close();
      // Written after the sockets closed (their sessions are in grace now) and before the
      // sessions end, so a restart on this port can still restore them.
      await checkpoint.stop();
      sockets.closeAll();
      tasks.dispose();
      stopPresence();
      toolList.dispose();
      watch.dispose();
      ideLink.hub.stop();
      extension.stop();
      await plugins?.stop();
      tools.states.dispose();
      monitoring.stop();
      await activityFile.close();
      automation.stop();
      await claudeTasks.stop();
      await lsp.stop();
    })());
  runtime.onShutdown(stop);
  lockWrite = writeLockFile(
    runtime,
    { port: local.port, workspace: workspace.root, workspaceFolders: [...workspace.folders], ideName: config.ideName, authToken: token },
    {
      onRestore: (err) =>
        err
          ? log.warn("could not write the deleted lock file again", { error: errorMessage(err) })
          : log.info("the lock file was deleted; wrote it again"),
    },
  );
  const lock = await lockWrite.catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  serving = true;
  const exit = opts.exit;
  idle =
    config.idleTimeoutMs > 0 && exit
      ? startIdleExit({
          idleMs: config.idleTimeoutMs,
          isBusy: () =>
            webSockets > 0 ||
            sockets.active + sockets.inGrace > 0 ||
            httpSessions() > 0 ||
            http.openStatelessStreams + (readOnlyHttp?.openStatelessStreams ?? 0) > 0 ||
            tasks.running > 0 ||
            claudeTasks.list({ status: "running" }).length > 0,
          onIdle: () => {
            log.info(`no session for ${config.idleTimeoutMs / 1000} s (--idle-timeout); exiting`);
            exit(0);
          },
        })
      : undefined;
  const url = `http://${local === served ? urlHost(config.bind) : "127.0.0.1"}:${local.port}`;
  log.info(`listening on ${url} (WebSocket + ${url}/mcp) for ${workspace.root}; ${registry.size} tools; lock ${lock.path}`);
  const remoteUrl = issuer === undefined ? undefined : `${issuer}/mcp`;
  if (remoteUrl !== undefined) {
    const by = remote.identityProvider ? `tokens of ${remote.identityProvider.issuer}` : "OAuth 2.1, this bridge authorizing";
    log.info(`remote access at ${remoteUrl} (${by}${tls ? `; TLS on ${urlHost(config.bind)}:${served.port}` : "; behind a TLS proxy"})`);
  }
  if (opts.shimCommand !== undefined) {
    // The next step, named: the server must not be called "ide" (README, "Connect Claude Code").
    log.info(
      `next: in ${workspace.root} run \`claude mcp add claude-ide-bridge -- ${opts.shimCommand}\` (or \`claude-ide-bridge init\` for .mcp.json), then \`claude mcp list\``,
    );
  }

  return { port: local.port, token, url, ...(remoteUrl && { remoteUrl }), lockPath: lock.path, stop };
}

/** A second bridge on one workspace splits its clients: say whose the first is, or refuse (--exclusive). */
async function checkOtherBridges(runtime: Runtime, root: string, opts: { exclusive: boolean; log: Logger }): Promise<void> {
  const others = await otherBridgesOn(runtime, root);
  if (others.length === 0) return;
  const who = `another bridge already serves ${root} (${describeBridges(others)})`;
  if (opts.exclusive)
    throw new BridgeError(
      "startup_failed",
      `${who}; --exclusive refuses a second one. Use it, or stop it first: claude-ide-bridge stop --port ${others[0]?.port ?? "<port>"}`,
    );
  opts.log.warn(
    `${who}; clients pick the newest lock, so they will use this one from now on. Stop the other with \`claude-ide-bridge stop --port ${others[0]?.port ?? "<port>"}\`, or start with --exclusive to refuse`,
  );
}
