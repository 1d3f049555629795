// The command line, parsed without side effects: argv in, a CliResult out, or BridgeError("usage").
// Value ranges come from ConfigFileSchema so a flag and its config-file key can never disagree.
import * as v from "valibot";
import { BridgeError } from "../errors.ts";
import { ConfigFileSchema, DEFAULT_CONFIG, type ConfigFile } from "./schema.ts";

export type CliFlags = Partial<ConfigFile> & { configPath?: string };

type CliResult = { kind: "help" } | { kind: "version" } | { kind: "run"; flags: CliFlags };

type ValueKey =
  | "workspace"
  | "bind"
  | "ideName"
  | "fixedToken"
  | "issuerUrl"
  | "tlsCert"
  | "tlsKey"
  | "oauthJwksUrl"
  | "oauthIssuer"
  | "oauthAudience"
  | "claudeBinary"
  | "automationPolicy";
type IntKey =
  | "port"
  | "timeout"
  | "maxResultSize"
  | "gracePeriod"
  | "toolRateLimit"
  | "requestRateLimit"
  | "maxSessions"
  | "maxWsSessions"
  | "maxSessionStagedMb"
  | "maxStagedMb"
  | "idleTimeout"
  | "automationConcurrency"
  | "lspMemoryMb"
  | "lspMaxServers"
  | "oauthTokenTtl";
type BoolKey =
  | "slim"
  | "verbose"
  | "jsonl"
  | "exclusive"
  | "allowPushToMain"
  | "allowPrivateHttp"
  | "oauthAllowPrivateMetadata"
  | "allowGitDirWrites"
  | "allowGitHooks"
  | "allowVSCodeDirWrites"
  | "pluginWatch";

type FlagSpec =
  | { kind: "string"; key: ValueKey }
  | { kind: "int"; key: IntKey }
  | { kind: "bool"; key: BoolKey }
  | { kind: "list"; key: "allowCommands" | "passEnv" | "corsOrigins" | "plugins" | "vscodeAllowCommands" }
  | { kind: "list"; key: "vscodeAllowTasks" }
  | { kind: "list"; key: "workspaceFolders" | "spawnRoots" }
  | { kind: "csv"; key: "toolsets" | "excludeToolsets" }
  | { kind: "profile" }
  | { kind: "driver" }
  | { kind: "config" }
  | { kind: "help" }
  | { kind: "version" };

const FLAGS: Record<string, FlagSpec> = {
  "--workspace": { kind: "string", key: "workspace" },
  "--workspace-folder": { kind: "list", key: "workspaceFolders" },
  "--spawn-root": { kind: "list", key: "spawnRoots" },
  "--port": { kind: "int", key: "port" },
  "--bind": { kind: "string", key: "bind" },
  "--ide-name": { kind: "string", key: "ideName" },
  "--fixed-token": { kind: "string", key: "fixedToken" },
  "--slim": { kind: "bool", key: "slim" },
  "--toolsets": { kind: "csv", key: "toolsets" },
  "--exclude-toolsets": { kind: "csv", key: "excludeToolsets" },
  "--profile": { kind: "profile" },
  "--verbose": { kind: "bool", key: "verbose" },
  "--jsonl": { kind: "bool", key: "jsonl" },
  "--timeout": { kind: "int", key: "timeout" },
  "--max-result-size": { kind: "int", key: "maxResultSize" },
  "--grace-period": { kind: "int", key: "gracePeriod" },
  "--tool-rate-limit": { kind: "int", key: "toolRateLimit" },
  "--request-rate-limit": { kind: "int", key: "requestRateLimit" },
  "--max-sessions": { kind: "int", key: "maxSessions" },
  "--max-ws-sessions": { kind: "int", key: "maxWsSessions" },
  "--max-session-staged-mb": { kind: "int", key: "maxSessionStagedMb" },
  "--max-staged-mb": { kind: "int", key: "maxStagedMb" },
  "--allow-push-to-main": { kind: "bool", key: "allowPushToMain" },
  "--allow-git-dir-writes": { kind: "bool", key: "allowGitDirWrites" },
  "--allow-git-hooks": { kind: "bool", key: "allowGitHooks" },
  "--allow-command": { kind: "list", key: "allowCommands" },
  "--allow-private-http": { kind: "bool", key: "allowPrivateHttp" },
  "--vscode-allow-command": { kind: "list", key: "vscodeAllowCommands" },
  "--vscode-allow-task": { kind: "list", key: "vscodeAllowTasks" },
  "--allow-vscode-dir-writes": { kind: "bool", key: "allowVSCodeDirWrites" },
  "--pass-env": { kind: "list", key: "passEnv" },
  "--idle-timeout": { kind: "int", key: "idleTimeout" },
  "--lsp-memory-mb": { kind: "int", key: "lspMemoryMb" },
  "--lsp-max-servers": { kind: "int", key: "lspMaxServers" },
  "--exclusive": { kind: "bool", key: "exclusive" },
  "--issuer-url": { kind: "string", key: "issuerUrl" },
  "--tls-cert": { kind: "string", key: "tlsCert" },
  "--tls-key": { kind: "string", key: "tlsKey" },
  "--oauth-jwks-url": { kind: "string", key: "oauthJwksUrl" },
  "--oauth-issuer": { kind: "string", key: "oauthIssuer" },
  "--oauth-audience": { kind: "string", key: "oauthAudience" },
  "--oauth-token-ttl": { kind: "int", key: "oauthTokenTtl" },
  "--oauth-allow-private-metadata": { kind: "bool", key: "oauthAllowPrivateMetadata" },
  "--cors-origin": { kind: "list", key: "corsOrigins" },
  "--plugin": { kind: "list", key: "plugins" },
  "--plugin-watch": { kind: "bool", key: "pluginWatch" },
  "--claude-driver": { kind: "driver" },
  "--claude-binary": { kind: "string", key: "claudeBinary" },
  "--automation-policy": { kind: "string", key: "automationPolicy" },
  "--automation-concurrency": { kind: "int", key: "automationConcurrency" },
  "--config": { kind: "config" },
  "--help": { kind: "help" },
  "-h": { kind: "help" },
  "--version": { kind: "version" },
  "-v": { kind: "version" },
};

export const HELP_TEXT = `claude-ide-bridge: an MCP server that gives Claude Code the IDE's powers.

Usage: claude-ide-bridge [options]

Options:
  --workspace <dir>          Workspace root (default: the top of the git repository around the
                             current directory; outside git the nearest directory with a package
                             manifest, else the current directory)
  --workspace-folder <dir>   A further workspace folder inside the jail (repeatable): a multi-root
                             workspace; setActiveWorkspaceFolder picks which one relative paths use
  --spawn-root <dir>         spawnWorkspace may start a child bridge on folders under it (repeatable;
                             default: none, so the tool refuses)
  --port <n>                 Port to listen on; 0 picks a free one (default: ${DEFAULT_CONFIG.port}; 0 or 1024-65535)
  --bind <host>              Address to bind (default: ${DEFAULT_CONFIG.bind})
  --ide-name <name>          Name shown to Claude Code (default: ${DEFAULT_CONFIG.ideName})
  --fixed-token <token>      Auth token, 16-500 visible ASCII chars (default: random per start);
                             a flag shows in ps and shell history: prefer the env variable
                             CLAUDE_IDE_BRIDGE_TOKEN, e.g. read from a file
  --slim                     Only the IDE-exclusive tools of the chosen toolsets: the
                             language-server ones (navigation, hover, rename, code actions,
                             diagnostics), contextBundle, getProjectContext, getToolCapabilities,
                             and with the VS Code extension getCurrentSelection,
                             getLatestSelection, getOpenEditors and openFile; no file, editor, git,
                             terminal or debugger tools (default: off)
  --toolsets <a,b,...>       Only these toolsets (repeatable; bridge always stays): workspace,
                             code-navigation, code-intelligence, files, editor, edit, search,
                             notes, git, github, commands, quality (default: all)
  --exclude-toolsets <a,b>   All toolsets but these (repeatable; default: none)
  --profile <client>         Fit a client that caps its tool list: vscode or windsurf (at most 100
                             tools; the tools the client's own agent covers go first) (default: none)
  --verbose                  Debug logging on stderr: each tool call and refused request,
                             never a token or file content (default: off)
  --jsonl                    Log one JSON object per line on stderr (default: off)
  --timeout <ms>             Per tool call (default: ${DEFAULT_CONFIG.timeoutMs}; 1000-600000)
  --max-result-size <kb>     Largest tool result (default: ${DEFAULT_CONFIG.maxResultSizeKb}; 1-4096)
  --grace-period <ms>        How long a dropped session waits to be resumed (default: ${DEFAULT_CONFIG.gracePeriodMs}; 5000-600000)
  --tool-rate-limit <n>      Tool calls per minute per session (default: ${DEFAULT_CONFIG.toolRateLimit}; 1-10000)
  --request-rate-limit <n>   MCP requests per minute per session (default: ${DEFAULT_CONFIG.requestRateLimit}; 1-100000)
  --max-sessions <n>         Streamable HTTP sessions kept at once; one active in the last minute
                             is never evicted (default: ${DEFAULT_CONFIG.maxSessions}; 1-1000)
  --max-ws-sessions <n>      WebSocket sessions kept at once, connected or in their grace period
                             (default: ${DEFAULT_CONFIG.maxWsSessions}; 1-1000)
  --max-session-staged-mb <n> Staged edits (transactions) one session may hold in memory, in MB
                             (default: ${DEFAULT_CONFIG.maxSessionStagedMb}; 1-4096)
  --max-staged-mb <n>        Staged edits all sessions together may hold, in MB
                             (default: ${DEFAULT_CONFIG.maxStagedMb}; 1-4096)
  --allow-push-to-main       Let gitPush push to main, master or the remote's default branch
                             (default: refused)
  --allow-git-dir-writes     Let tools write where git takes code to run from: .git/, git
                             directories, the hooks directory and config files the repository's
                             config names (default: refused)
  --allow-git-hooks          Run the repository's hooks (and a rebase's exec steps) on git tools
                             and runCommand git runs that change it (default: no repository
                             hook ever runs)
  --allow-command <name>     Let runCommand run this program too (repeatable; default allowlist:
                             git, npm, cargo, go, pytest, jest, vitest, tsc, eslint, biome), or a
                             runner subcommand such as "npm exec" or a cargo plugin ("cargo
                             watch"); interpreters and shells are never allowed
  --vscode-allow-command <id>
                             Let executeVSCodeCommand run this VS Code command (repeatable;
                             default: none; a built-in deny list of dangerous commands wins)
  --vscode-allow-task <name> Let runVSCodeTask run this VS Code task (repeatable; "*" for every
                             task; default: none): a task runs the workspace's commands with
                             VS Code's whole environment, secrets included
  --allow-vscode-dir-writes  Let tools write VS Code's workspace config: .vscode/ (tasks, launch
                             configurations, settings) and *.code-workspace (default: refused)
  --allow-private-http       Let sendHttpRequest, and the hosts runCommand's tools connect to,
                             reach private, loopback and link-local addresses (default: off)
  --pass-env <NAME>          Let commands, test runners and checkers see this variable although
                             it looks like a secret (repeatable; *TOKEN, *SECRET*, *PASSWORD,
                             *KEY and the like are kept from them by default)
  --idle-timeout <ms>        Exit after this long without a session; 0 never (default: ${DEFAULT_CONFIG.idleTimeoutMs};
                             a bridge the shim starts: 600000)
  --lsp-memory-mb <n>        Language servers' resident memory together; past it the least recently
                             used is stopped (default: ${DEFAULT_CONFIG.lspMemoryMb}; 64-65536)
  --lsp-max-servers <n>      Language servers running at once, least recently used stopped first
                             (default: ${DEFAULT_CONFIG.lspMaxServers}; 1-64)
  --exclusive                Refuse to start when another bridge serves this workspace
                             (default: warn and start)
  --tls-cert <pem>           Serve HTTPS with this certificate chain (and --tls-key <pem>): remote
                             clients may then connect with OAuth 2.1 (default: plain HTTP, loopback)
  --issuer-url <url>         The bridge's public https URL behind a TLS reverse proxy,
                             https://host[/prefix]: the OAuth issuer; /mcp below it is the resource.
                             Without this or --tls-cert, --bind must be a loopback address
  --oauth-token-ttl <s>      Lifetime of the access tokens the bridge issues (default: ${DEFAULT_CONFIG.remote.tokenTtlSeconds}; 60-86400)
  --oauth-jwks-url <url>     Accept tokens of an existing identity provider instead (with
  --oauth-issuer <iss>       --oauth-issuer and --oauth-audience): its JWKS, issuer and audience;
  --oauth-audience <aud>     tokens carry the scopes mcp:read and/or mcp:write
  --oauth-allow-private-metadata
                             Fetch OAuth client metadata documents from private addresses too
                             (default: public addresses only)
  --cors-origin <origin>     Let this browser origin call the bridge (repeatable; default: none)
  --plugin <dir-or-package>  Load a plugin's tools: a directory with claude-ide-bridge-plugin.json,
                             or an npm package installed in the workspace or beside the bridge
                             (repeatable; default: none)
  --plugin-watch             Reload a plugin 300 ms after its files change (default: off)
  --claude-driver <d>        subprocess: runClaudeTask and the automation hooks run \`claude -p\` as
                             a child process; none: they say they cannot (default: none)
  --claude-binary <path>     The Claude Code executable (default: claude on PATH, else the
                             workspace's node_modules/.bin/claude)
  --automation-policy <file> JSON hooks policy: which events start a Claude Code task, with what
                             prompt and limits (README, "Automation"; needs --claude-driver subprocess)
  --automation-concurrency <n>
                             Claude Code tasks running at once, 1-8; the others wait (default: 2)
  --config <file>            JSON config file with the same keys in camelCase
                             (default: env CLAUDE_IDE_BRIDGE_CONFIG, else none)
  -v, --version              Print the version and exit
  -h, --help                 Print this help and exit

Flags override the config file, which overrides the defaults.
`;

export function parseCli(argv: readonly string[]): CliResult {
  // --help and --version win wherever they appear, so "… --bad --help" still shows the help.
  if (argv.some((a) => a === "--help" || a === "-h")) return { kind: "help" };
  if (argv.some((a) => a === "--version" || a === "-v")) return { kind: "version" };

  const flags: CliFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const spec = FLAGS[name];
    if (spec === undefined) {
      throw usage(arg.startsWith("-") ? `unknown option ${name}` : `unexpected argument "${arg}"`);
    }
    if (spec.kind === "help" || spec.kind === "version") continue;
    if (spec.kind === "bool") {
      if (eq !== -1) throw usage(`${name} takes no value`);
      flags[spec.key] = true;
      continue;
    }
    let value: string;
    if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      // "--workspace --slim" means the value was forgotten; "-5" is still a (bad) number.
      if (next === undefined || (next.startsWith("-") && !/^-\d/.test(next))) {
        throw usage(`${name} needs a value`);
      }
      value = next;
      i++;
    }
    if (spec.kind === "config") {
      if (value === "") throw usage(`${name} needs a file path`);
      flags.configPath = value;
    } else if (spec.kind === "list") {
      if (value.trim() === "")
        throw usage(
          `${name} needs ${spec.key === "passEnv" ? "a variable name" : spec.key === "corsOrigins" ? "an origin" : spec.key === "plugins" ? "a plugin directory or npm package name" : spec.key === "workspaceFolders" || spec.key === "spawnRoots" ? "a directory" : "a program name"}`,
        );
      flags[spec.key] = [...(flags[spec.key] ?? []), value];
    } else if (spec.kind === "csv") {
      flags[spec.key] = [...(flags[spec.key] ?? []), ...parseToolsetNames(name, value)];
    } else if (spec.kind === "profile") {
      const profile = v.safeParse(ConfigFileSchema.entries.profile, value);
      if (!profile.success || profile.output === undefined) throw usage(`${name} must be vscode or windsurf, got "${value}"`);
      flags.profile = profile.output;
    } else if (spec.kind === "driver") {
      if (value !== "subprocess" && value !== "none") throw usage(`${name} must be subprocess or none, got "${value}"`);
      flags.claudeDriver = value;
    } else if (spec.kind === "int") {
      flags[spec.key] = parseInteger(name, spec.key, value);
    } else {
      flags[spec.key] = checkString(name, spec.key, value);
    }
  }
  return { kind: "run", flags };
}

/** "git, lsp" or "git,lsp": the names, each checked for shape (the registry checks they exist). */
function parseToolsetNames(flag: string, raw: string): string[] {
  const names = raw.split(",").map((n) => n.trim());
  const bad = names.find((n) => !/^[a-z][a-z-]*$/.test(n));
  if (bad !== undefined) throw usage(`${flag} takes comma-separated toolset names, got "${raw}"`);
  return names;
}

function parseInteger(flag: string, key: IntKey, raw: string): number {
  const range = numericRange(key);
  const allowed = key === "port" ? "0 (any free port) or 1024-65535" : `${range.min}-${range.max}`;
  if (!/^-?\d+$/.test(raw)) throw usage(`${flag} must be an integer (${allowed}), got "${raw}"`);
  const n = Number(raw);
  // Ports below 1024 need root and are never what a per-user bridge wants.
  const outOfRange = !v.safeParse(ConfigFileSchema.entries[key], n).success || (key === "port" && n > 0 && n < 1024);
  if (outOfRange) throw usage(`${flag} must be ${allowed}, got ${raw}`);
  return n;
}

function checkString(flag: string, key: ValueKey, raw: string): string {
  const result = v.safeParse(ConfigFileSchema.entries[key], raw);
  if (result.success) return raw;
  if (raw === "") throw usage(`${flag} needs a non-empty value`);
  const detail = key === "fixedToken" ? "must be 16-500 visible ASCII characters, no spaces" : result.issues[0].message;
  throw usage(`${flag} is invalid: ${detail}`);
}

/** The min/max of an integer key, read from the schema's pipe so the numbers live in one place. */
function numericRange(key: IntKey): { min: number; max: number } {
  const range = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };
  for (const item of ConfigFileSchema.entries[key].wrapped.pipe) {
    if (item.type === "min_value") range.min = item.requirement;
    if (item.type === "max_value") range.max = item.requirement;
  }
  return range;
}

function usage(message: string): BridgeError {
  return new BridgeError("usage", message);
}
