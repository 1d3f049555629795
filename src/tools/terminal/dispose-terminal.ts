// disposeTerminal: closes a terminal the bridge created (its processes end with it). The user's own
// terminals are theirs: refused.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { findTerminal } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "disposeTerminal",
  title: "Close terminal",
  description: "Closes a VS Code terminal the bridge created, ending what runs in it (a dev server). The user's own terminals are refused.",
  searchHint: "close dispose kill terminal stop dev server",
  input: v.strictObject({ terminal: v.pipe(v.string(), v.minLength(1), v.description("Terminal id (listTerminals) or name.")) }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const terminal = await findTerminal(ctx, input.terminal);
    const { disposed } = await ctx.extension.request("extension/disposeTerminal", { id: terminal.id }, { signal: ctx.signal });
    if (!disposed)
      throw new ToolError("terminal_not_found", `Terminal ${terminal.id} was already gone`, {
        suggestion: "listTerminals shows what is open.",
      });
    return `Closed terminal ${terminal.id} "${terminal.name}".`;
  },
});
