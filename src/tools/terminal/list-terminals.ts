// listTerminals: VS Code's terminals with the ids the other terminal tools take.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TerminalInfo, terminalInfo } from "./terminal-info.ts";

export default defineTool({
  name: "listTerminals",
  title: "List terminals",
  description: "Lists VS Code's integrated terminals: id, name, process id, whether shell integration is active, who created it.",
  searchHint: "list terminals open shells running vscode integrated terminal",
  input: v.strictObject({}),
  output: v.object({ terminals: v.array(TerminalInfo) }),
  annotations: { readOnlyHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(_input, ctx) {
    const { terminals } = await ctx.extension.request("extension/listTerminals", {}, { signal: ctx.signal });
    return { terminals: terminals.map(terminalInfo) };
  },
});
