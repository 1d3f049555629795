// Starts one bridge: the core services (src/startup/core-services.ts), plugins, MCP sessions, HTTP +
// WebSocket on one port, and the lock file Claude Code discovers it by. Returns a handle whose stop()
// undoes it all, in the order written here.
import type { Runtime } from "./ports/runtime.ts";
import { createApp } from "./app.ts";
import type { BridgeConfig } from "./config/schema.ts";
import { BridgeError, errorMessage } from "./errors.ts";
import { startIdleExit, type IdleExit } from "./idle-exit.ts";
import { cleanStaleLocks, lockDir, writeLockFile, type LockFileHandle } from "./lock/lock-file.ts";
import { checkOtherBridges } from "./lock/other-bridges.ts";
import { createLogger, type Logger } from "./log.ts";
import type { McpSession } from "./mcp/sessions/session.ts";
import { cleanStaleCheckpoints, readCheckpoint, SessionCheckpoint } from "./mcp/sessions/session-checkpoint.ts";
import { SessionStore } from "./mcp/sessions/session-store.ts";
import { SubscriptionHub } from "./mcp/subscriptions/subscription-hub.ts";
import { TaskStore } from "./mcp/tasks/task-store.ts";
import type { RemoteAccess, RemoteAccessOptions } from "./security/auth/oauth/remote-access.ts";
import { remoteEnabled } from "./config/remote.ts";
import type { Served } from "./ports/net.ts";
import { documentFetcher, readOnly, readTls, remoteHostPolicy, urlHost } from "./remote-setup.ts";
import { randomToken } from "./security/auth/tokens.ts";
import type { CallScope } from "./capabilities/context.ts";
import type { ToolListAnnouncer } from "./tools/platform/registry-announcer.ts";
import { languageServerHealth } from "./lsp/lsp-health.ts";
import { credentialBudget } from "./mcp/limits/rate-budget.ts";
import { takeFromAll } from "./mcp/limits/token-bucket.ts";
import { buildInstructions } from "./tools/platform/instructions.ts";
import { ToolRegistry } from "./tools/platform/registry.ts";
import { toolContext } from "./tools/platform/tool-environment.ts";
import type { PluginHost } from "./plugins/plugin-host.ts";
import { startPlugins } from "./plugins/start-plugins.ts";
import { StreamableHttpTransport } from "./transports/http/streamable-http.ts";
import { PACKAGE_VERSION } from "./version.ts";
import { persistActivity, type ActivityFile } from "./capabilities/activity/activity-file.ts";
import type { DoctorCheck } from "./capabilities/activity/bridge-monitor.ts";
import { lazyDashboard } from "./dashboard/lazy-routes.ts";
import { FOLLOW_COMMITS_AFTER_MS, startCoreServices } from "./startup/core-services.ts";
import { ToolsetGatedSession } from "./startup/gated-session.ts";
import { startLiveLists } from "./startup/live-lists.ts";
import type { BridgeLaunch } from "./capabilities/child-bridges.ts";

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
  /** How to start another bridge of this copy (spawnWorkspace's children); without it spawnWorkspace says it cannot. */
  bridgeCommand?: BridgeLaunch;
}

export async function startBridge(runtime: Runtime, config: BridgeConfig, opts: StartBridgeOptions = {}): Promise<RunningBridge> {
  const log = opts.logger ?? createLogger({ verbose: config.verbose, jsonl: config.jsonl });
  const startedAt = Date.now();
  const token = config.fixedToken ?? randomToken();
  let boundPort = 0;
  // Read only once the bridge serves, when the socket store and the plugins below exist.
  const core = await startCoreServices(runtime, config, {
    log,
    startedAt,
    serving: {
      port: () => boundPort,
      websocket: () => ({ active: sockets.active, inGrace: sockets.inGrace, graceMs: sockets.graceMs }),
      graceEnds: () => sockets.graceEnds(),
      plugins: () => plugins?.status() ?? [],
    },
    ...(opts.doctor && { doctor: opts.doctor }),
    ...(opts.bridgeCommand && { bridgeCommand: opts.bridgeCommand }),
  });
  const { workspace, maxResultChars, registry, builtIn, ideLink, extension, events, lsp, monitoring, claudeTasks, automation, tools } =
    core;
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
      if (readRegistry !== undefined) readInstructions = buildInstructions(readRegistry.toolsets, { root: workspace.root });
      toolList?.announceNow();
    },
  });
  let instructions = buildInstructions(registry.toolsets, { root: workspace.root });
  const remote = config.remote;
  const remoteOn = remoteEnabled(remote);
  const tls = remote.tls && (await readTls(runtime, remote.tls));
  // Tokens with only mcp:read get sessions that know the read-only tools alone.
  const readRegistry = remoteOn ? new ToolRegistry(readOnly(builtIn.toolsets), { slim: config.slim, maxResultChars }) : undefined;
  if (readRegistry !== undefined) builtIn.attach(readRegistry);
  if (readRegistry !== undefined) plugins?.mirrorReadOnly(readRegistry);
  // Rebuilt with `instructions` when a plugin reload changes the tool list, never per session.
  let readInstructions = readRegistry && buildInstructions(readRegistry.toolsets, { root: workspace.root });
  const rateLimits = { requestsPerMinute: config.requestRateLimit, toolCallsPerMinute: config.toolRateLimit };
  // One token today, so one credential: every session shares its budget (src/mcp/limits/rate-budget.ts).
  const credential = credentialBudget(rateLimits);

  // MCP 2026-07-28: list changes reach every subscriptions/listen stream; long calls become tasks.
  const hub = new SubscriptionHub();
  const tasks = new TaskStore({ onChange: (taskId, task) => hub.publish({ kind: "task", taskId, task }) });
  const live = startLiveLists(core, {
    ...(readRegistry && { readRegistry }),
    hub,
    notifySessions: () => {
      for (const session of liveSessions.values()) session.notifyToolsListChanged();
    },
  });
  toolList = live.toolList;
  const sessionOptions = {
    content: live.content,
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
    // Only the user's own program on this machine may widen a session's folders (src/capabilities/active-folder.ts).
    const local = !opts.stateless && !opts.readOnlyTools && (opts.transport === "websocket" || !remoteOn);
    const session = new ToolsetGatedSession(
      {
        ...sessionOptions,
        ...(local
          ? { onClientRoots: (id: string, roots: readonly { uri: string }[]) => void tools.env.activeFolders?.offerRoots(id, roots) }
          : {}),
        instructions,
        ...(opts.readOnlyTools && readRegistry ? { registry: readRegistry, instructions: readInstructions ?? instructions } : {}),
        ...(opts.stateless ? { stateless: true } : {}),
      },
      builtIn,
    );
    if (!opts.stateless) liveSessions.set(session.id, session);
    if (local) tools.env.activeFolders?.markLocal(session.id);
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
  // Imported only with remote access on: it loads jose, tens of milliseconds of every start-up.
  const openRemoteAccess = async (options: RemoteAccessOptions) =>
    (await import("./security/auth/oauth/remote-access.ts")).openRemoteAccess(options);
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
      // Every tool is listed and callable from the start; a toolset's modules load on its first
      // call, which waits for them (src/startup/lazy-toolsets.ts).
      toolsLoaded: builtIn.status().loaded.length === builtIn.status().total,
      toolsetsLoaded: builtIn.status().loaded,
      ...(plugins && { plugins: plugins.status() }),
      extensionConnected: extension.connected,
      extension: extension.status(),
      languageServers: languageServerHealth(lsp.status()),
      automation: automation.status(),
    }),
  });

  const removed = await cleanStaleLocks(runtime);
  if (removed.length > 0) log.info(`removed ${removed.length} stale lock file(s)`, { removed });
  await checkOtherBridges(runtime, { root: workspace.root, exclusive: config.exclusive, log });
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
  const following = setTimeout(() => core.followCommits(), FOLLOW_COMMITS_AFTER_MS);
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
      clearTimeout(following);
      dashboard.close();
      idle?.stop();
      // First, while this process surely lives: a child still stopping when it exits would lose its lock file.
      const children = tools.env.childBridges?.stopAll();
      const lock = await lockWrite?.catch(() => undefined);
      await lock?.remove().catch((err: unknown) => log.warn("could not remove lock file", { error: errorMessage(err) }));
      await children;
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
      live.stop();
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
