// What a session of Claude Code's IDE link serves: the IDE tools (protocol.md A4), and the bridge's
// other tools under the names the IDE tools do not take, so a plain MCP client on the lock file's
// WebSocket keeps them. Claude Code itself shows the model only getDiagnostics and executeCode of
// its "ide" server; it reaches the bridge's tools through the shim.
import { ideLinkToolset } from "./editor/ide/index.ts";
import type { Toolset } from "./platform/toolset.ts";
import { withIdeLink } from "./platform/toolset.ts";

export function ideLinkToolsets(toolsets: readonly Toolset[]): Toolset[] {
  return withIdeLink(ideLinkToolset, toolsets);
}
