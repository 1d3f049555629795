// The bridge's configuration: one validated object, built from defaults, an optional config file
// and CLI flags (in that order of precedence, lowest first). Every subsystem reads only this.
import * as v from "valibot";
import { LspConfigSchema, type LspConfig } from "./lsp-schema.ts";
import { DEFAULT_REMOTE, REMOTE_FILE_KEYS, type RemoteAccessConfig } from "./remote.ts";
import { AUTOMATION_FILE_KEYS, DEFAULT_AUTOMATION, type AutomationConfig } from "./automation.ts";

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

/** Keys a config file may set (camelCase flags). Unknown keys are refused, not ignored. */
export const ConfigFileSchema = v.strictObject({
  workspace: v.optional(v.pipe(v.string(), v.minLength(1))),
  port: v.optional(int(0, 65535)),
  bind: v.optional(v.pipe(v.string(), v.minLength(1))),
  ideName: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  fixedToken: v.optional(v.pipe(v.string(), v.minLength(16), v.maxLength(500), v.regex(/^[\x21-\x7e]+$/, "visible ASCII only"))),
  slim: v.optional(v.boolean()),
  // Toolset selection (src/tools/platform/toolset-selection.ts checks the names against the toolsets).
  toolsets: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z][a-z-]*$/, "a toolset name")))),
  excludeToolsets: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z][a-z-]*$/, "a toolset name")))),
  profile: v.optional(v.picklist(["vscode", "windsurf"])),
  verbose: v.optional(v.boolean()),
  jsonl: v.optional(v.boolean()),
  timeout: v.optional(int(1000, 600_000)),
  maxResultSize: v.optional(int(1, 4096)),
  gracePeriod: v.optional(int(5000, 600_000)),
  toolRateLimit: v.optional(int(1, 10_000)),
  requestRateLimit: v.optional(int(1, 100_000)),
  maxSessions: v.optional(int(1, 1000)),
  maxWsSessions: v.optional(int(1, 1000)),
  maxSessionStagedMb: v.optional(int(1, 4096)),
  maxStagedMb: v.optional(int(1, 4096)),
  // git
  allowPushToMain: v.optional(v.boolean()),
  allowGitDirWrites: v.optional(v.boolean()),
  allowGitHooks: v.optional(v.boolean()),
  allowCommands: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200)))),
  allowPrivateHttp: v.optional(v.boolean()),
  vscodeAllowCommands: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200)))),
  vscodeAllowTasks: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200)))),
  workspaceFolders: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(4096)))),
  spawnRoots: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(4096)))),
  allowVSCodeDirWrites: v.optional(v.boolean()),
  passEnv: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"), v.maxLength(200)))),
  idleTimeout: v.optional(int(0, 7 * 24 * 3_600_000)),
  lspMemoryMb: v.optional(int(64, 65_536)),
  lspMaxServers: v.optional(int(1, 64)),
  exclusive: v.optional(v.boolean()),
  lsp: v.optional(LspConfigSchema),
  // Plugins (src/plugins/): directories or npm package names, and whether edits reload them.
  plugins: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1000)))),
  pluginWatch: v.optional(v.boolean()),
  ...REMOTE_FILE_KEYS,
  ...AUTOMATION_FILE_KEYS,
});
export type ConfigFile = v.InferOutput<typeof ConfigFileSchema>;

export interface BridgeConfig {
  /** Absolute path of the workspace root. */
  workspace: string;
  port: number;
  bind: string;
  ideName: string;
  /** Bearer / IDE token; a random one is made at start when absent. */
  fixedToken: string | undefined;
  slim: boolean;
  /** --toolsets: only these toolsets; undefined means all. */
  toolsets: string[] | undefined;
  /** --exclude-toolsets: all toolsets but these. */
  excludeToolsets: string[];
  /** --profile: keep the tool count within a capped client's limit. */
  profile: "vscode" | "windsurf" | undefined;
  verbose: boolean;
  /** Logs as one JSON object per line on stderr. */
  jsonl: boolean;
  /** Per tool call, in ms. */
  timeoutMs: number;
  /** Largest tool result, in KB; larger text is truncated with a note. */
  maxResultSizeKb: number;
  /** How long a closed WebSocket session waits for its client to come back, in ms. */
  gracePeriodMs: number;
  /** Tool calls per minute per session. */
  toolRateLimit: number;
  /** JSON-RPC requests per minute per session (-32004 beyond it). */
  requestRateLimit: number;
  /**
   * Streamable HTTP sessions kept at once. A session active in the last minute is never evicted
   * for a newcomer, so this is how many clients can be busy at the same time.
   */
  maxSessions: number;
  /** WebSocket sessions kept at once, connected or waiting out their grace period. */
  maxWsSessions: number;
  /** Staged edits (transactions) one session may hold, in MB; past it stageEdit refuses. */
  maxSessionStagedMb: number;
  /** Staged edits all sessions together may hold, in MB. */
  maxStagedMb: number;
  /** gitPush may push to main, master or the remote's default branch (refused by default). */
  allowPushToMain: boolean;
  /** Tools may write where git takes code to run from (.git, hooks directories, included config). */
  allowGitDirWrites: boolean;
  /** The repository's hooks and a rebase's exec steps run on git runs that change it. */
  allowGitHooks: boolean;
  /** Programs runCommand may run besides the defaults, or "npm exec"-style runner subcommands. */
  allowCommands: string[];
  /** sendHttpRequest may reach private, loopback and link-local addresses. */
  allowPrivateHttp: boolean;
  /** VS Code commands executeVSCodeCommand may run (a built-in deny list wins). */
  vscodeAllowCommands: string[];
  /** VS Code tasks runVSCodeTask may run, by name ("*": all); none by default. */
  vscodeAllowTasks: string[];
  /** Further workspace folders (absolute), inside the jail beside the root: a multi-root workspace. */
  workspaceFolders: string[];
  /** Directories (absolute) under which spawnWorkspace may start child bridges; none by default. */
  spawnRoots: string[];
  /** Tools may write VS Code's workspace config (.vscode/, *.code-workspace). */
  allowVSCodeDirWrites: boolean;
  /** Variables that reach commands, runners and checkers although they look like secrets. */
  passEnv: string[];
  /**
   * Exit after this long (ms) without any session, WebSocket or HTTP; 0 never. A bridge the shim
   * starts gets 10 minutes, so it does not outlive its last Claude Code session by much.
   */
  idleTimeoutMs: number;
  /** Refuse to start when another live bridge already serves the same workspace. */
  exclusive: boolean;
  /** Language servers by languageId, ahead of the built-in ones (config file only). */
  lsp: LspConfig;
  /** The language servers' resident memory together, in MiB; past it the least recently used is stopped. */
  lspMemoryMb: number;
  /** Language servers running at once; past it the least recently used is stopped. */
  lspMaxServers: number;
  /** OAuth-protected access from other machines (src/config/remote.ts); off by default. */
  remote: RemoteAccessConfig;
  /** --plugin: plugin directories or npm package names, loaded in this order. */
  plugins: string[];
  /** --plugin-watch: reload a plugin when its files change. */
  pluginWatch: boolean;
  /** Claude Code tasks and the automation hooks (src/config/automation.ts); off by default. */
  automation: AutomationConfig;
}

export const DEFAULT_CONFIG: Omit<BridgeConfig, "workspace"> = {
  port: 0,
  bind: "127.0.0.1",
  ideName: "claude-ide-bridge",
  fixedToken: undefined,
  slim: false,
  toolsets: undefined,
  excludeToolsets: [],
  profile: undefined,
  verbose: false,
  jsonl: false,
  timeoutMs: 30_000,
  maxResultSizeKb: 512,
  gracePeriodMs: 120_000,
  toolRateLimit: 60,
  requestRateLimit: 200,
  // 20 busy HTTP clients fit three times over, and so do the 30 sessions the MCP conformance
  // runner opens within seconds and never ends (all kept a minute, as recently active); an idle
  // session costs ~20 KB and its replay buffer is bounded (src/transports/http/http-session.ts).
  maxSessions: 64,
  // One Claude Code per project, its reconnects (same session id, no new session), a few shims
  // and restarts waiting out the grace period: a handful. 32 is far above that and bounds memory
  // (~20 KB a session) and the checkpoint (~200 bytes a session) under connect/drop churn.
  maxWsSessions: 32,
  // Staged text lives in the heap until it is committed: the whole bridge's stays under half of a
  // 256 MB heap (Node's default on small machines is larger), so a call's own copies still fit.
  maxSessionStagedMb: 32,
  maxStagedMb: 96,
  allowPushToMain: false,
  allowGitDirWrites: false,
  allowGitHooks: false,
  allowCommands: [],
  vscodeAllowCommands: [],
  vscodeAllowTasks: [],
  workspaceFolders: [],
  spawnRoots: [],
  allowVSCodeDirWrites: false,
  allowPrivateHttp: false,
  passEnv: [],
  idleTimeoutMs: 0,
  exclusive: false,
  lsp: {},
  lspMemoryMb: 1536,
  lspMaxServers: 16,
  remote: DEFAULT_REMOTE,
  plugins: [],
  pluginWatch: false,
  automation: DEFAULT_AUTOMATION,
};
