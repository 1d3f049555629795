// Claude Code's IDE link: executeCode (protocol.md A4), mcp__ide__executeCode to the model: runs
// Python in the kernel of the Jupyter notebook active in VS Code. VS Code says so when none is.
import * as v from "valibot";
import { defineTool, type ContentBlock } from "../../platform/define-tool.ts";

export default defineTool({
  name: "executeCode",
  description: "Runs code in the kernel of the Jupyter notebook active in the editor and returns its output.",
  searchHint: "execute run code jupyter notebook kernel python",
  input: v.strictObject({ code: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  timeoutMs: 120_000,
  async viaExtension(input, ctx) {
    const { outputs } = await ctx.extension.request("extension/executeCode", { code: input.code }, { signal: ctx.signal });
    const content: ContentBlock[] = outputs.length > 0 ? outputs : [{ type: "text", text: "(no output)" }];
    return { content };
  },
});
