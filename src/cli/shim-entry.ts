// The command an MCP client runs to start the shim, shared by init and gen-mcp-config.
export const DEFAULT_SERVER_NAME = "claude-ide-bridge";

/** Said when asked for a server named "ide" (protocol.md A4). */
export const IDE_NAME_NOTE =
  'Note: Claude Code reserves the name "ide" for its IDE link and shows the model only getDiagnostics and executeCode of such a server; pick another --name.\n';

/**
 * The variable a portable entry names a checkout by: Claude Code expands `${VAR}` in .mcp.json's
 * command and args (and warns "Missing environment variables" when one is unset), so one committed
 * file serves every teammate's checkout, wherever it lies.
 */
export const HOME_VARIABLE = "CLAUDE_IDE_BRIDGE_HOME";
const CHECKOUT_BIN = /^(.*)[\\/]bin[\\/]claude-ide-bridge\.js$/;

/** The checkout directory an entry names by absolute path (`node /abs/bin/claude-ide-bridge.js shim`), if it does. */
export function checkoutOf(entry: { args: readonly string[] }): string | undefined {
  for (const arg of entry.args) {
    const dir = CHECKOUT_BIN.exec(arg)?.[1];
    if (dir !== undefined && (arg.startsWith("/") || /^[A-Za-z]:[\\/]/.test(arg))) return dir;
  }
  return undefined;
}

/** The entry with its checkout's absolute path replaced by `${CLAUDE_IDE_BRIDGE_HOME}`. */
export function portableEntry(entry: { command: string; args: string[] }): { command: string; args: string[] } {
  return {
    command: entry.command,
    args: entry.args.map((arg) => (checkoutOf({ args: [arg] }) === undefined ? arg : `\${${HOME_VARIABLE}}/bin/claude-ide-bridge.js`)),
  };
}

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
