// listVSCodeCommands: the command ids VS Code has, filtered, and which of them the bridge may run.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { commandAllowed } from "./vscode-policy.ts";

export default defineTool({
  name: "listVSCodeCommands",
  title: "List VS Code commands",
  description: "Lists VS Code's command ids containing a text, and which of them executeVSCodeCommand may run (--vscode-allow-command).",
  searchHint: "list vscode commands command palette ids available actions",
  input: v.strictObject({
    filter: v.optional(v.pipe(v.string(), v.maxLength(200), v.description('Text the id contains, e.g. "format" (case-insensitive).'))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2000), v.description("Default 200."))),
  }),
  output: v.object({ total: v.number(), commands: v.array(v.string()), runnable: v.array(v.string()) }),
  annotations: { readOnlyHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const { commands } = await ctx.extension.request("extension/listCommands", {}, { signal: ctx.signal });
    const needle = input.filter?.toLowerCase() ?? "";
    const matching = commands.filter((c) => c.toLowerCase().includes(needle));
    const allowed = ctx.settings.vscodeAllowCommands ?? [];
    return {
      total: matching.length,
      commands: matching.slice(0, input.limit ?? 200),
      runnable: matching.filter((c) => commandAllowed(c, allowed)),
    };
  },
});
