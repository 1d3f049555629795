// Claude Code's IDE link: closeAllDiffTabs (protocol.md A5), sent at the start of every user turn.
// Only the diffs this bridge opened are closed (claudecode.nvim #277): never the user's own.
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";

export default defineTool({
  name: "closeAllDiffTabs",
  description: "Closes every diff tab the bridge opened in the editor, rejecting the diffs still waiting.",
  searchHint: "close diff tabs",
  input: v.strictObject({}),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async viaExtension(_input, ctx) {
    return `CLOSED_${await ctx.extension.closeDiffs()}_DIFF_TABS`;
  },
  // Without an editor no diff tab is open: that is the true answer, not a failure.
  async handler() {
    return "CLOSED_0_DIFF_TABS";
  },
});
