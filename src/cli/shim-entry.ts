// The command an MCP client runs to start the shim, shared by init and gen-mcp-config.
export const DEFAULT_SERVER_NAME = "claude-ide-bridge";

/** Said when asked for a server named "ide" (protocol.md A4). */
export const IDE_NAME_NOTE =
  'Note: Claude Code reserves the name "ide" for its IDE link and shows the model only getDiagnostics and executeCode of such a server; pick another --name.\n';

/** `self` (how this program was started) + "shim" + `extra`; `override` ("npx claude-ide-bridge") wins over `self`. */
export function shimCommand(
  self: { command: string; args: string[] },
  opts: { override?: string; extra?: string[] } = {},
): { command: string; args: string[] } {
  const { override, extra = [] } = opts;
  if (override !== undefined) {
    const words = override
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    const [command, ...rest] = words;
    if (command !== undefined) return { command, args: [...rest, "shim", ...extra] };
  }
  return { command: self.command, args: [...self.args, "shim", ...extra] };
}
