// Claude Code's IDE link: getLatestSelection (protocol.md A4): the last non-empty selection VS Code
// pushed, which stays when the focus moves to the terminal Claude Code runs in.
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { ideJson } from "../editor-files.ts";

export default defineTool({
  name: "getLatestSelection",
  description: "Returns the most recent non-empty selection made in the editor, even if the editor lost focus.",
  searchHint: "latest last selection selected text",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    const latest = ctx.extension.state.latestSelection;
    return ideJson(latest === undefined ? { success: false, message: "No selection available" } : { success: true, ...latest });
  },
});
