// Subcommands of `claude-ide-bridge <name> ...`. Each loads lazily so that the bridge's own
// start-up (and the shim's) pays only for what it runs.
import type { CommandContext, CommandMain } from "../src/commands/command-io.ts";
import type { CliHost } from "./cli.ts";
import type { Runtime } from "../src/runtime.ts";

/** Runs a subcommand; resolves with an exit code, or undefined to keep the process running. */
export type SubcommandMain = (host: CliHost, args: string[]) => Promise<number | undefined>;

export interface Subcommand {
  name: string;
  summary: string;
  load(): Promise<SubcommandMain>;
}

const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: "shim",
    summary: "stdio MCP server relaying to the bridge, surviving its restarts (for `claude mcp add`)",
    load: async () => (await import("../shim/main.ts")).default,
  },
  {
    name: "init",
    summary: "write or update this project's .mcp.json entry for the shim",
    load: command(async () => (await import("../src/commands/init.ts")).init),
  },
  {
    name: "status",
    summary: "running bridges: lock file, pid, /health",
    load: command(async () => (await import("../src/commands/status.ts")).status),
  },
  {
    name: "print-token",
    summary: "print the token of the bridge for this directory (or --port)",
    load: command(async () => (await import("../src/commands/print-token.ts")).printToken),
  },
  {
    name: "gen-mcp-config",
    summary: "print the MCP config for claude, claude-desktop, cursor, windsurf, vscode, codex",
    load: command(async () => (await import("../src/commands/gen-mcp-config.ts")).genMcpConfig),
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
        self: await selfInvocation(host.runtime),
      };
      return main(ctx, args);
    };
  };
}

/**
 * How MCP clients should start this program: the `claude-ide-bridge` on PATH when it is this very
 * package (npm i -g, npm link), else node with this package's bin script (absolute path).
 */
async function selfInvocation(runtime: Runtime): Promise<{ command: string; args: string[] }> {
  let bin: string | undefined;
  // runtime/subcommands.ts in a checkout, dist/runtime/subcommands.js when compiled.
  for (const relative of ["../bin/claude-ide-bridge.js", "../../bin/claude-ide-bridge.js"]) {
    const path = decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/^\/([A-Za-z]:)/, "$1");
    if ((await runtime.fs.stat(path).catch(() => undefined))?.isFile) {
      bin = await runtime.fs.realpath(path);
      break;
    }
  }
  if (bin === undefined) return { command: "claude-ide-bridge", args: [] };
  const onPath = await runtime.which("claude-ide-bridge");
  if (onPath !== undefined && (await runtime.fs.realpath(onPath).catch(() => "")) === bin) return { command: "claude-ide-bridge", args: [] };
  return { command: "node", args: [bin] };
}
