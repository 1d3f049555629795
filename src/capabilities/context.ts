// What a tool handler may touch (DESIGN.md, "The flow of one request"): narrow capabilities, never
// the Runtime or the bridge's config (which holds the auth token). ctx.fs goes through the jail;
// ctx.exec and ctx.http run programs and reach the network through one guarded path each;
// ctx.lsp and ctx.extension reach the engines behind them (language servers, the VS Code extension).
import type { EventPublisher } from "./events/event-bus.ts";
import type { Exec } from "./exec/exec.ts";
import type { HttpClient } from "./http/http-client.ts";
import type { ExtensionClient } from "../extension/extension-client.ts";
import type { LspService } from "../lsp/lsp-service.ts";
import type { DebugEngine } from "../dap/debug-engine.ts";

/** What tools call of the debug engine: its public methods, so a stand-in may load the engine on first use. */
export type DebugEngineApi = Pick<
  DebugEngine,
  "adapters" | "adaptersWithin" | "adapter" | "start" | "attachProcess" | "attach" | "processFacts" | "tracing" | "isGoProgram"
>;
import type { LogLevel } from "./log-levels.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { ToolsetState, ToolsetStateKey } from "./toolset-state.ts";
import type { BridgeMonitor } from "./activity/bridge-monitor.ts";
import type { ClaudeTasks } from "./claude/claude-tasks.ts";
import type { ActiveFolders } from "./active-folder.ts";
import type { ChildBridges } from "./child-bridges.ts";

export interface ProbeResult {
  available: boolean;
  /** Absolute path of the executable when found. */
  path?: string;
  /** Found but not usable yet (gh not logged in): why, and how to fix it. */
  notReady?: { reason: string; suggestion: string };
}

/** Which external commands exist on this machine; looked up once and cached. */
export interface Probes {
  get(command: string): Promise<ProbeResult>;
}

/**
 * The VS Code extension (src/extension/extension-client.ts): whether it answers now, requests to it,
 * what it pushed, and the diffs waiting on the user. Tools rarely test `connected` themselves: the
 * route (src/tools/platform/route-call.ts) runs their viaExtension handler only when it is true.
 */
export type ExtensionLink = Pick<ExtensionClient, "connected" | "status" | "request" | "state" | "openDiff" | "closeDiffs">;

/** A read-only view of the registered tools, for introspection tools. */
export interface ToolCatalog {
  list(): readonly ToolSummary[];
  /** Toolsets or tools the bridge's flags left out, with the flag that brings them back. */
  offByConfiguration?(): readonly { readonly toolset: string; readonly tools: readonly string[]; readonly enable: string }[];
  /** The --plugin plugins: loaded or failed, their tools, their last failure. */
  plugins?(): readonly PluginStatus[];
  /** What the --automation-policy hooks can hear (src/services/automation/start-automation.ts). */
  automation?(): AutomationStatus;
}

export interface AutomationStatus {
  /** Whether a policy is loaded. */
  readonly policy: boolean;
  /** Whether commits made outside the bridge reach onGitCommit; undefined until the bridge has looked. */
  readonly outsideCommits?: { readonly seen: true } | { readonly seen: false; readonly reason: string; readonly fix: string };
}

/** One --plugin as the bridge sees it now (src/plugins/plugin-host.ts). */
export interface PluginStatus {
  /** The manifest's name, else the --plugin value. */
  readonly name: string;
  /** The --plugin value it was loaded from. */
  readonly source: string;
  readonly version?: string;
  /** "loaded": its tools are served; "failed": none of them are (see error). */
  readonly state: "loaded" | "failed";
  readonly tools: readonly string[];
  /** Why it failed to load, or why the last reload was refused while the previous version still serves. */
  readonly error?: string;
  /** The last call of one of its tools that threw or hung. */
  readonly lastToolFailure?: { readonly tool: string; readonly error: string };
}

export interface ToolSummary {
  name: string;
  title: string | undefined;
  description: string;
  /** The words a model would search for (`anthropic/searchHint`); searchTools ranks by it. */
  searchHint?: string;
  requires: ToolRequirements;
  readOnly: boolean;
}

export interface ToolRequirements {
  /** Executables that must be on PATH (e.g. "git", "rg"). */
  probes?: readonly string[];
  /** Executables used when on PATH; the tool works without them (a built-in fallback). */
  optionalProbes?: readonly string[];
  /** "required": only the extension can answer; "fallback": answered headless without it, better with it. */
  extension?: "required" | "fallback";
  /** The extension protocol (semver) its VS Code handler needs; older extensions cannot answer it. */
  extensionProtocol?: string;
}

/** The bridge settings a tool may know; nothing secret (no token). */
export interface ToolSettings {
  /** --max-result-size in characters: every result is cut to this. */
  readonly maxResultChars: number;
  /** --timeout: the default per-call limit in ms. */
  readonly timeoutMs: number;
  /** --slim: only the IDE-exclusive tools are registered. */
  readonly slim: boolean;
  /**
   * --allow-push-to-main: gitPush may push to main, master or the remote's default branch. Absent
   * means refused, so contexts built without it (tests, other areas' fixtures) stay on the safe side.
   */
  readonly allowPushToMain?: boolean;
  /** --allow-command: programs (or "npm exec"-style runner subcommands) runCommand may run besides the defaults. */
  readonly allowCommands?: readonly string[];
  /** --vscode-allow-command: VS Code commands executeVSCodeCommand may run (a built-in deny list wins). */
  readonly vscodeAllowCommands?: readonly string[];
  /** --vscode-allow-task: VS Code tasks runVSCodeTask may run, by name ("*": all). Absent means none. */
  readonly vscodeAllowTasks?: readonly string[];
  /** --allow-private-http: sendHttpRequest may reach private, loopback and link-local addresses. */
  readonly allowPrivateHttp?: boolean;
  /** --pass-env: variables commands and runners see although they look like secrets. */
  readonly passEnv?: readonly string[];
  /** --allow-git-hooks: git runs that change the repository run its hooks (off: no repository hook ever runs). */
  readonly allowGitHooks?: boolean;
  /** --max-session-staged-mb, --max-staged-mb: bytes of staged edits one session, and all together, may hold. */
  readonly stagedBytes?: { readonly session: number; readonly bridge: number };
}

/** What every call shares: the capabilities of the bridge. */
export interface ToolEnvironment {
  readonly fs: WorkspaceFs;
  readonly settings: ToolSettings;
  readonly probes: Probes;
  readonly extension: ExtensionLink;
  readonly catalog: ToolCatalog;
  /** Tells automation what the tool did (src/capabilities/events/bridge-events.ts). */
  readonly events: EventPublisher;
  /** Language servers of the workspace (src/lsp/lsp-service.ts): one per language and project root, shared by all sessions. */
  readonly lsp: LspService;
  /** Debug adapters (src/dap/debug-engine.ts): finds them and starts sessions; the debug toolset's state owns the sessions. */
  readonly debug: DebugEngineApi;
  /** The bridge's activity log, sessions and doctor checks (src/capabilities/activity/); absent in contexts built without a bridge. */
  readonly monitor?: BridgeMonitor;
  /** Claude Code tasks (src/services/claude-tasks/orchestrator.ts): one queue per bridge, shared by all sessions. */
  readonly claudeTasks: ClaudeTasks;
  /** Each session's active workspace folder (src/capabilities/active-folder.ts); ctx.fs already follows it. */
  readonly activeFolders?: ActiveFolders;
  /** Child bridges on other folders (src/capabilities/child-bridges.ts), stopped with their session and the bridge. */
  readonly childBridges?: ChildBridges;
}

/** What belongs to one call. */
export interface CallScope {
  /** The MCP session making the call (state a tool keeps per client, e.g. a transaction, is keyed by it). */
  readonly session: string;
  /** Claude Code's id of the tool use behind the call (`_meta["claudecode/toolUseId"]`): events the call publishes carry it. */
  readonly toolUseId?: string;
  /** The executables the called tool declared (requires.probes and optionalProbes): all its ctx.exec may run. */
  readonly executables: readonly string[];
  /** Aborted on notifications/cancelled, on timeout, and when the session ends. */
  readonly signal: AbortSignal;
  /** When the call's time limit ends (epoch ms): work that can stop early answers with what it did before it. */
  readonly deadline?: number;
  /** Sends notifications/progress when the caller gave a progressToken; otherwise a no-op. */
  progress(progress: number, opts?: { total?: number; message?: string }): void;
  /** Sends notifications/message to the client (subject to logging/setLevel) and logs locally. */
  log(level: LogLevel, message: string, data?: unknown): void;
}

export type ToolContext = ToolEnvironment &
  Omit<CallScope, "executables"> & {
    /** The state its toolset keeps between calls (src/capabilities/toolset-state.ts), one per bridge. */
    state<S extends ToolsetState>(key: ToolsetStateKey<S>): S;
    /** Runs the tool's declared executables, never a shell (src/capabilities/exec/exec.ts). */
    readonly exec: Exec;
    /** HTTP(S) requests through the SSRF defence (src/capabilities/http/http-client.ts). */
    readonly http: HttpClient;
  };
