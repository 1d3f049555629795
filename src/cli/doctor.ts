// `claude-ide-bridge doctor [--json] [--workspace DIR]`: every fact between "installed" and "Claude
// Code answers with the bridge's tools", each ✓/✗ with the fix, so a user who sees no tools learns
// which step failed and what to do about it: the runtime, the bridge
// for this directory, the lock files and ports, git/rg/gh, the language servers (started and asked
// to initialize), and Claude Code's config. Exits 1 when something is broken. Tokens never printed.
import { resolveConfig } from "../config/load.ts";
import { errorMessage } from "../errors.ts";
import type { LspConfig } from "../config/lsp-schema.ts";
import { configuredServers } from "../lsp/configured-servers.ts";
import type { Runtime } from "../ports/runtime.ts";
import { listLocks, realDirectory } from "./bridge-locks.ts";
import type { CommandContext, CommandMain } from "./command-io.ts";
import { bridgeChecks, lockChecks, runtimeCheck } from "./doctor-bridge.ts";
import { claudeConfigChecks } from "./doctor-claude-config.ts";
import { debugAdapterChecks } from "./doctor-debug.ts";
import { extensionInstallChecks } from "./doctor-extension.ts";
import { hasFailure, renderChecks, type Check } from "./doctor-report.ts";
import { languageServerChecks } from "./doctor-lsp.ts";
import { toolChecks } from "./doctor-tools.ts";
import { parseFlags, workspaceFlag } from "./flags.ts";
import { projectRootFor } from "./project-root-runtime.ts";
import { shellLine } from "./self-invocation.ts";
import { checkoutOf } from "./shim-entry.ts";

const DOCTOR_HELP = `Usage: claude-ide-bridge doctor [--json] [--workspace <dir>] [--config <file>]

Checks the setup for the directory (default: the current one) and says how to fix what is wrong:
the runtime, the bridge for it (running, healthy, token accepted), the lock files (modes, fields,
stale ones) and ports, git/rg/gh, the VS Code extension (installed, connected), the language servers the bridge would use (the config file's
"lsp" ones and the built-ins: found, and answering initialize), and Claude Code's config
(.mcp.json, ~/.claude.json): each entry for the bridge is tried as Claude Code would try it. A
stdio entry is started with its own command and env and asked to initialize and list its tools
(so it may start a bridge, as Claude Code would); HTTP and WebSocket entries reach the bridge with
their own headers and token. Exits 1 when something is broken (✗); · and ! are information and
warnings.
`;

export const doctor: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--workspace", "--config"], booleans: ["--json", "--help", "-h"] });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(DOCTOR_HELP);
    return 0;
  }
  const { runtime } = ctx;
  const cwd = await realDirectory(runtime, workspaceFlag(flags, runtime.paths.cwd));
  const { root, checks } = await doctorChecks(runtime, {
    cwd,
    configPath: flags.values.get("--config"),
    self: ctx.self,
    runtimeVersion: ctx.runtimeVersion,
  });
  const ok = !hasFailure(checks);
  if (flags.booleans.has("--json")) ctx.out(`${JSON.stringify({ ok, cwd, projectRoot: root, checks }, null, 2)}\n`);
  else ctx.out(`claude-ide-bridge doctor for ${cwd}${root !== cwd ? ` (project ${root})` : ""}\n${renderChecks(checks)}`);
  return ok ? 0 : 1;
};

/**
 * Every check of `doctor` for the real directory `cwd`: the command prints them, and a running
 * bridge's bridgeDoctor tool returns them (one source for both).
 */
export async function doctorChecks(
  runtime: Runtime,
  opts: {
    cwd: string;
    configPath?: string | undefined;
    self: CommandContext["self"];
    runtimeVersion: string;
    /** bridgeDoctor's call: when it aborts, the probes stop their processes and requests and this rejects with the reason. */
    signal?: AbortSignal;
  },
): Promise<{ root: string; checks: Check[] }> {
  const { cwd } = opts;
  const signal = opts.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const root = await projectRootFor(runtime, cwd);
  const config = await configCheck(runtime, opts.configPath, cwd);
  const shim = shellLine({ command: opts.self.command, args: [...opts.self.args, "shim"] });
  // Fixes name this program as it can be run here: from a checkout, node and its bin's path.
  const cli = shellLine(opts.self);
  const locks = await listLocks(runtime);
  signal.throwIfAborted();
  const groups = await untilAborted(
    Promise.all([
      Promise.resolve([runtimeCheck(runtime, opts.runtimeVersion), ...(config.check ? [config.check] : [])]),
      bridgeChecks(runtime, locks, { cwd, root, shim, cli, signal }),
      lockChecks(runtime, locks, { cli, signal }),
      toolChecks(runtime, root, { signal }),
      extensionInstallChecks(runtime),
      languageServerChecks(runtime, { root, configured: configuredServers(config.lsp) }),
      debugAdapterChecks(runtime),
      claudeConfigChecks(runtime, { cwd, root, shim, cli, checkout: checkoutOf(opts.self), locks, signal }),
    ]),
    signal,
  );
  return { root, checks: groups.flat() };
}

/**
 * `work`, or a rejection with the abort's reason as soon as `signal` aborts. The probes given the
 * signal end their processes and requests themselves; the editor CLIs and language servers, which
 * take none, finish on their own deadlines in the background.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The config the bridge would read (--config, else CLAUDE_IDE_BRIDGE_CONFIG), for its "lsp" servers; a broken one is a ✗. */
async function configCheck(runtime: Runtime, configPath: string | undefined, cwd: string): Promise<{ lsp: LspConfig; check?: Check }> {
  try {
    const config = await resolveConfig(configPath === undefined ? {} : { configPath }, {
      readConfigFile: (path) => runtime.fs.readTextFile(path),
      cwd,
      env: runtime.env,
    });
    return { lsp: config.lsp };
  } catch (err) {
    return {
      lsp: {},
      check: {
        area: "config",
        status: "fail",
        summary: errorMessage(err),
        fix: "fix the config file (claude-ide-bridge --help lists its keys), or unset CLAUDE_IDE_BRIDGE_CONFIG",
      },
    };
  }
}
