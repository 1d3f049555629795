// `claude-ide-bridge gen-mcp-config <client>`: prints the config that makes an MCP client start
// the stdio shim. Clients with a project (Claude Code, Cursor, VS Code) let the shim find the
// bridge of the project they run in; global configs (Claude Desktop, Windsurf, Codex) name the
// workspace explicitly, since their servers do not start in the project directory. The shim starts
// a bridge when none runs, so every snippet works without one. stdout carries only the config
// (JSON, or TOML for Codex), so `gen-mcp-config cursor > .cursor/mcp.json` gives a valid file;
// where it goes and what else to do goes to stderr.
import type { CommandMain } from "./command-io.ts";
import { parseFlags, usage, workspaceFlag } from "./flags.ts";
import { shellLine } from "./self-invocation.ts";
import { DEFAULT_SERVER_NAME, IDE_NAME_NOTE, shimCommand } from "./shim-entry.ts";

export const CLIENTS = ["claude", "claude-desktop", "cursor", "windsurf", "vscode", "codex", "json"] as const;
type Client = (typeof CLIENTS)[number];

const GEN_MCP_CONFIG_HELP = `Usage: claude-ide-bridge gen-mcp-config <${CLIENTS.join("|")}> [--name <name>] [--workspace <dir>] [--command <cmd>]

Prints the MCP server config that starts the stdio shim for the given client: only the config
on stdout (JSON; TOML for codex), where to put it on stderr.
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
  const workspace = workspaceFlag(flags, ctx.runtime.paths.cwd);
  if (name === "ide") ctx.err(IDE_NAME_NOTE);
  const { config, advice } = snippet(client as Client, { name, workspace, self: ctx.self, command: flags.values.get("--command") });
  ctx.out(config);
  ctx.err(advice);
  return 0;
};

interface SnippetOptions {
  name: string;
  workspace: string;
  self: { command: string; args: string[] };
  command: string | undefined;
}

interface Snippet {
  /** Valid JSON (TOML for codex), nothing else. */
  config: string;
  /** Where the config goes, for stderr. */
  advice: string;
}

export function snippet(client: Client, o: SnippetOptions): Snippet {
  const project = shimCommand(o.self, { override: o.command });
  const global = shimCommand(o.self, { override: o.command, extra: ["--workspace", o.workspace] });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  switch (client) {
    case "claude":
      return {
        config: json({ mcpServers: { [o.name]: { type: "stdio", ...project } } }),
        advice:
          `Claude Code: put this in the project's .mcp.json (claude-ide-bridge init does), or run in the project:\n` +
          `  claude mcp add ${o.name} -- ${shellLine(project)}\n(add -s user to use it in every project)\n`,
      };
    case "claude-desktop":
      return {
        config: json({ mcpServers: { [o.name]: global } }),
        advice:
          "Claude Desktop: claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\); restart Claude Desktop afterwards. The shim starts the bridge for the workspace.\n",
      };
    case "cursor":
      return {
        config: json({ mcpServers: { [o.name]: withWorkspaceVar(project) } }),
        advice: "Cursor: .cursor/mcp.json in the project (or ~/.cursor/mcp.json for all projects).\n",
      };
    case "windsurf":
      return { config: json({ mcpServers: { [o.name]: global } }), advice: "Windsurf: ~/.codeium/windsurf/mcp_config.json\n" };
    case "vscode":
      return {
        config: json({ servers: { [o.name]: { type: "stdio", ...withWorkspaceVar(project) } } }),
        advice: "VS Code: .vscode/mcp.json in the project.\n",
      };
    case "codex":
      return {
        config: `[mcp_servers.${tomlKey(o.name)}]\ncommand = ${JSON.stringify(global.command)}\nargs = [${global.args.map((a) => JSON.stringify(a)).join(", ")}]\n`,
        advice: "Codex CLI: add this to ~/.codex/config.toml\n",
      };
    case "json":
      return { config: json({ mcpServers: { [o.name]: { type: "stdio", ...project } } }), advice: "" };
  }
}

/** Cursor and VS Code expand ${workspaceFolder} to the open project. */
function withWorkspaceVar(cmd: { command: string; args: string[] }): { command: string; args: string[] } {
  return { command: cmd.command, args: [...cmd.args, "--workspace", "${workspaceFolder}"] };
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
