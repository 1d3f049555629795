// Claude Code's IDE link: close_tab (protocol.md A4), the one snake_case name; Claude Code calls it
// with a diff's tab name after it wrote an accepted diff.
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";

export default defineTool({
  name: "close_tab",
  description: "Closes the editor tab with the given name.",
  searchHint: "close tab editor",
  input: v.strictObject({ tab_name: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async viaExtension(input, ctx) {
    await ctx.extension.request("extension/closeTab", { tabName: input.tab_name }, { signal: ctx.signal });
    return "TAB_CLOSED";
  },
});
