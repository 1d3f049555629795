// `claude-ide-bridge shim` flags. Parsed here rather than by src/config/cli.ts so the shim's
// start-up does not load the bridge's config schema.
export interface ShimOptions {
  port: number | undefined;
  token: string | undefined;
  workspace: string | undefined;
  /** Start a bridge when none serves the project (the default; --no-spawn turns it off). */
  spawn: boolean;
  /** How long the client's requests wait for a first bridge before they are answered with an error. */
  connectTimeoutMs: number | undefined;
  /** --idle-timeout for a bridge this shim starts. */
  idleTimeoutMs: number;
  giveUpMs: number;
  verbose: boolean;
  /** Flags for a bridge started by --spawn (everything after `--`). */
  bridgeArgs: string[];
}

export const DEFAULT_GIVE_UP_MS = 5 * 60_000;
/**
 * Claude Code gives a stdio server 30 s to answer initialize, then shows only "timed out". Without
 * spawning, a bridge that is not there within 1.5 s is not coming: say so while `claude mcp list`
 * still listens (the reason within 5 s: the CLI starts a failed server twice, so it waits
 * twice). A bridge the shim started gets 20 s, still well inside the client's 30.
 */
export const CONNECT_TIMEOUT_MS = { spawning: 20_000, waiting: 1_500 } as const;
/** A bridge the shim started exits after this long without a session, so none runs on forever unused. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;
const GIVE_UP_ENV = "CLAUDE_IDE_BRIDGE_SHIM_GIVE_UP_MS";
/** The original shim's name for the same setting. */
const LEGACY_GIVE_UP_ENV = "SHIM_MAX_UNREACHABLE_MS";

export const SHIM_HELP = `Usage: claude-ide-bridge shim [options] [<port> [<token>]]

Relays MCP between stdin/stdout (one JSON-RPC message per line) and the bridge's WebSocket,
surviving bridge restarts. With no bridge for the project it starts one. Add it to Claude Code
(any name but "ide", which Claude Code reserves for its IDE link) from a checkout of
claude-ide-bridge (after \`npm ci\` in it), in the project:
  claude mcp add claude-ide-bridge -- node /path/to/claude-ide-bridge/bin/claude-ide-bridge.js shim
or let init write the command that starts this copy into the project's .mcp.json:
  node /path/to/claude-ide-bridge/bin/claude-ide-bridge.js init
The package is not on the npm registry yet: \`npx -y claude-ide-bridge shim\` works only in a
project where it is installed (npm install /path/to/claude-ide-bridge-<version>.tgz).

Options:
  --port <n>            Connect to this port (token from its lock file, --token, or
                        env CLAUDE_IDE_BRIDGE_TOKEN) instead of discovering the bridge
  --token <t>           The bridge's token (with --port)
  --workspace <dir>     The project, as given (default: around env CLAUDE_PROJECT_DIR, else
                        the current directory: the top of its git repository; outside git
                        the nearest directory with a package manifest)
  --no-spawn            Never start a bridge; wait for one started otherwise
  --spawn               Start a bridge for the project when none runs (the default;
                        detached; bridge flags may follow \`--\`)
  --idle-timeout <ms>   A bridge this shim starts exits after this long without a
                        session (default: ${DEFAULT_IDLE_TIMEOUT_MS}; 0: never)
  --connect-timeout <ms>  How long requests wait for a first bridge before they are
                        answered with an error saying why (default: ${CONNECT_TIMEOUT_MS.spawning} when
                        starting one, else ${CONNECT_TIMEOUT_MS.waiting})
  --give-up-after <ms>  Exit after this long without a bridge once connected (default:
                        ${DEFAULT_GIVE_UP_MS}; env ${GIVE_UP_ENV})
  --verbose             Debug logs on stderr
  -h, --help            This help

stdout carries only MCP messages; everything else goes to stderr.
`;

export class ShimUsageError extends Error {}

export function parseShimArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): ShimOptions | "help" {
  const opts: ShimOptions = {
    port: undefined,
    token: undefined,
    workspace: undefined,
    spawn: true,
    connectTimeoutMs: undefined,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    giveUpMs: giveUpFromEnv(env),
    verbose: false,
    bridgeArgs: [],
  };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") {
      opts.bridgeArgs = args.slice(i + 1);
      break;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = args[++i];
      if (next === undefined || next.startsWith("--")) throw new ShimUsageError(`${name} needs a value`);
      return next;
    };
    switch (name) {
      case "-h":
      case "--help":
        return "help";
      case "--port":
        opts.port = parsePort(value(), "--port");
        break;
      case "--token":
        opts.token = nonEmpty(value(), "--token");
        break;
      case "--workspace":
        opts.workspace = nonEmpty(value(), "--workspace");
        break;
      case "--give-up-after":
        opts.giveUpMs = parseMs(value(), "--give-up-after");
        break;
      case "--spawn":
        opts.spawn = true;
        break;
      case "--no-spawn":
        opts.spawn = false;
        break;
      case "--connect-timeout":
        opts.connectTimeoutMs = parseMs(value(), "--connect-timeout");
        break;
      case "--idle-timeout":
        opts.idleTimeoutMs = parseMs(value(), "--idle-timeout", { allowZero: true });
        break;
      case "--verbose":
        opts.verbose = true;
        break;
      default:
        if (arg.startsWith("-")) throw new ShimUsageError(`unknown option ${name}`);
        positional.push(arg);
    }
  }
  // The original's form: `shim <port> <token>`.
  if (positional.length > 2) throw new ShimUsageError(`unexpected argument "${positional[2]}"`);
  if (positional[0] !== undefined) opts.port ??= parsePort(positional[0], "<port>");
  if (positional[1] !== undefined) opts.token ??= positional[1];
  if (opts.token !== undefined && opts.port === undefined) throw new ShimUsageError("--token needs --port");
  return opts;
}

function giveUpFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  for (const name of [GIVE_UP_ENV, LEGACY_GIVE_UP_ENV]) {
    const raw = env[name];
    if (raw !== undefined && raw !== "") return parseMs(raw, name);
  }
  return DEFAULT_GIVE_UP_MS;
}

function parsePort(raw: string, what: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65535) throw new ShimUsageError(`${what} must be a port number (1-65535), got "${raw}"`);
  return n;
}

function parseMs(raw: string, what: string, opts: { allowZero?: boolean } = {}): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || (n < 1000 && !(opts.allowZero === true && n === 0))) {
    throw new ShimUsageError(
      `${what} must be a number of milliseconds (at least 1000${opts.allowZero === true ? ", or 0" : ""}), got "${raw}"`,
    );
  }
  return n;
}

function nonEmpty(raw: string, what: string): string {
  if (raw === "") throw new ShimUsageError(`${what} needs a non-empty value`);
  return raw;
}
