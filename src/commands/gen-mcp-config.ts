// `claude-ide-bridge gen-mcp-config <client>`: prints the config that makes an MCP client start
// the stdio shim. Clients with a project (Claude Code, Cursor, VS Code) let the shim find the
// bridge of the project they run in; global configs (Claude Desktop, Windsurf, Codex) name the
// workspace explicitly, since their servers do not start in the project directory.
import { isAbsolute, join } from "../security/posix-path.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags, usage } from "./flags.ts";
import { DEFAULT_SERVER_NAME, shimCommand } from "./shim-entry.ts";

export const CLIENTS = ["claude", "claude-desktop", "cursor", "windsurf", "vscode", "codex", "json"] as const;
export type Client = (typeof CLIENTS)[number];

export const GEN_MCP_CONFIG_HELP = `Usage: claude-ide-bridge gen-mcp-config <${CLIENTS.join("|")}> [--name <name>] [--workspace <dir>] [--command <cmd>]

Prints the MCP server config that starts the stdio shim for the given client.
  --name <name>       Server name (default: ${DEFAULT_SERVER_NAME})
  --workspace <dir>   Workspace for clients with a global config (default: the current directory)
  --command <cmd>     How to run claude-ide-bridge, e.g. "npx claude-ide-bridge"
`;

export const genMcpConfig: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--name", "--workspace", "--command"], booleans: ["--help", "-h"], maxPositionals: 1 });
  const client = flags.positionals[0];
  if (flags.booleans.has("--help") || flags.booleans.has("-h") || client === undefined) {
    (client === undefined && !flags.booleans.has("--help") && !flags.booleans.has("-h") ? ctx.err : ctx.out)(GEN_MCP_CONFIG_HELP);
    return client === undefined && !flags.booleans.has("--help") && !flags.booleans.has("-h") ? 2 : 0;
  }
  if (!(CLIENTS as readonly string[]).includes(client)) throw usage(`unknown client "${client}"; one of: ${CLIENTS.join(", ")}`);
  const name = flags.values.get("--name") ?? DEFAULT_SERVER_NAME;
  const dirFlag = flags.values.get("--workspace") ?? ".";
  const workspace = isAbsolute(dirFlag) ? dirFlag : join(ctx.runtime.paths.cwd, dirFlag);
  ctx.out(snippet(client as Client, { name, workspace, self: ctx.self, command: flags.values.get("--command") }));
  return 0;
};

interface SnippetOptions {
  name: string;
  workspace: string;
  self: { command: string; args: string[] };
  command: string | undefined;
}

export function snippet(client: Client, o: SnippetOptions): string {
  const project = shimCommand(o.self, { override: o.command });
  const global = shimCommand(o.self, { override: o.command, extra: ["--workspace", o.workspace] });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  switch (client) {
    case "claude":
      return (
        `# Claude Code, in the project directory (add -s user to use it in every project):\n` +
        `claude mcp add ${o.name} -- ${shellLine(project)}\n\n` +
        `# or commit it in the project's .mcp.json (claude-ide-bridge init writes this):\n` +
        json({ mcpServers: { [o.name]: { type: "stdio", ...project } } })
      );
    case "claude-desktop":
      return (
        `// Claude Desktop: claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/,\n` +
        `// Windows: %APPDATA%\\Claude\\); restart Claude Desktop afterwards.\n` +
        json({ mcpServers: { [o.name]: global } })
      );
    case "cursor":
      return `// Cursor: .cursor/mcp.json in the project (or ~/.cursor/mcp.json for all projects)\n` + json({ mcpServers: { [o.name]: withWorkspaceVar(project) } });
    case "windsurf":
      return `// Windsurf: ~/.codeium/windsurf/mcp_config.json\n` + json({ mcpServers: { [o.name]: global } });
    case "vscode":
      return `// VS Code: .vscode/mcp.json in the project\n` + json({ servers: { [o.name]: { type: "stdio", ...withWorkspaceVar(project) } } });
    case "codex":
      return (
        `# Codex CLI: ~/.codex/config.toml\n` +
        `[mcp_servers.${tomlKey(o.name)}]\n` +
        `command = ${JSON.stringify(global.command)}\n` +
        `args = [${global.args.map((a) => JSON.stringify(a)).join(", ")}]\n`
      );
    case "json":
      return json({ mcpServers: { [o.name]: { type: "stdio", ...project } } });
  }
}

/** Cursor and VS Code expand ${workspaceFolder} to the open project. */
function withWorkspaceVar(cmd: { command: string; args: string[] }): { command: string; args: string[] } {
  return { command: cmd.command, args: [...cmd.args, "--workspace", "${workspaceFolder}"] };
}

function shellLine(cmd: { command: string; args: string[] }): string {
  return [cmd.command, ...cmd.args].map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
