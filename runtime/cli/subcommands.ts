// Subcommands of `claude-ide-bridge <name> ...`. Each loads lazily so that the bridge's own
// start-up (and the shim's) pays only for what it runs.
import type { CommandContext, CommandMain } from "../../src/cli/command-io.ts";
import type { CliHost } from "../../src/cli/cli-host.ts";
import type { Runtime } from "../../src/ports/runtime.ts";
import { selfInvocation } from "../../src/cli/self-invocation.ts";

/** Runs a subcommand; resolves with an exit code, or undefined to keep the process running. */
type SubcommandMain = (host: CliHost, args: string[]) => Promise<number | undefined>;

interface Subcommand {
  name: string;
  summary: string;
  load(): Promise<SubcommandMain>;
}

const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: "shim",
    summary: "stdio MCP server relaying to the bridge, surviving its restarts (for `claude mcp add`)",
    load: async () => (await import("../../shim/main.ts")).default,
  },
  {
    name: "init",
    summary: "write or update this project's .mcp.json entry for the shim",
    load: command(async () => (await import("../../src/cli/init.ts")).init),
  },
  {
    name: "status",
    summary: "running bridges: lock file, pid, /health",
    load: command(async () => (await import("../../src/cli/status.ts")).status),
  },
  {
    name: "print-token",
    summary: "print the token of the bridge for this directory (or --port)",
    load: command(async () => (await import("../../src/cli/print-token.ts")).printToken),
  },
  {
    name: "doctor",
    summary: "check the setup: runtime, bridge, lock files, tools, language servers, Claude Code config",
    load: command(async () => (await import("../../src/cli/doctor.ts")).doctor),
  },
  {
    name: "dashboard",
    summary: "print (or --open) a one-time login link to the bridge's live dashboard",
    load: command(async () => (await import("../../src/cli/dashboard.ts")).dashboardCommand),
  },
  {
    name: "install-extension",
    summary: "install the VS Code extension into code, cursor, windsurf or code-server",
    load: command(async () => (await import("../../src/cli/install-extension.ts")).installExtension),
  },
  {
    name: "stop",
    summary: "stop the bridge for this directory (or --port) cleanly",
    load: command(async () => (await import("../../src/cli/stop.ts")).stop),
  },
  {
    name: "notify",
    summary: "post a Claude Code hook event to the bridge's automation hooks (what init --hooks installs)",
    load: command(async () => (await import("../../src/cli/notify.ts")).notifyCommand((await import("./hook-input.ts")).readHookInput)),
  },
  {
    name: "oauth",
    summary: "list or revoke the access granted to remote clients (OAuth)",
    load: command(async () => (await import("../../src/cli/oauth.ts")).oauthCommand),
  },
  {
    name: "gen-mcp-config",
    summary: "print the MCP config for claude, claude-desktop, cursor, windsurf, vscode, codex",
    load: command(async () => (await import("../../src/cli/gen-mcp-config.ts")).genMcpConfig),
  },
  {
    name: "gen-plugin-stub",
    summary: "write a working plugin (manifest, one tool, its own test) to start from",
    load: command(async () => (await import("../../src/cli/gen-plugin-stub.ts")).genPluginStub),
  },
];

export function findSubcommand(name: string | undefined): Subcommand | undefined {
  return name === undefined ? undefined : SUBCOMMANDS.find((s) => s.name === name);
}

export function listSubcommands(): readonly Subcommand[] {
  return SUBCOMMANDS;
}

/** Adapts a runtime-agnostic command (src/commands) to the CLI host. */
function command(load: () => Promise<CommandMain>): () => Promise<SubcommandMain> {
  return async () => {
    const main = await load();
    return async (host, args) => {
      const ctx: CommandContext = {
        runtime: host.runtime,
        out: (text) => host.writeStdout(text),
        err: (text) => console.error(text.replace(/\n$/, "")),
        self: await selfInvocation(host.runtime, await binPath(host.runtime)),
        runtimeVersion: runtimeVersion(host.runtime),
        signalProcess: (pid, signal) => process.kill(pid, signal),
      };
      return main(ctx, args);
    };
  };
}

/** The real path of this copy's bin/claude-ide-bridge.js: runtime/cli/ in a checkout, dist/runtime/cli/ when compiled, dist/runtime/ in the bundle. */
export async function binPath(runtime: Runtime): Promise<string | undefined> {
  for (const relative of ["../../bin/claude-ide-bridge.js", "../../../bin/claude-ide-bridge.js"]) {
    const path = decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/^\/([A-Za-z]:)/, "$1");
    if ((await runtime.fs.stat(path).catch(() => undefined))?.isFile) return runtime.fs.realpath(path);
  }
  return undefined;
}

/** The runtime and its version, as `doctor` reports them. */
export function runtimeVersion(runtime: Runtime): string {
  const versions = process.versions as Record<string, string | undefined>;
  return versions[runtime.name] ?? versions.node ?? "unknown";
}
