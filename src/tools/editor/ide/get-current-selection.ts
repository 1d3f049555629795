// Claude Code's IDE link: getCurrentSelection (protocol.md A4), asked of VS Code now.
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { ideJson } from "../editor-files.ts";

export default defineTool({
  name: "getCurrentSelection",
  description: "Returns the active editor's current selection: its text, file and 0-based range.",
  searchHint: "current selection selected text cursor editor",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    const { selection } = await ctx.extension.request("extension/getSelection", {}, { signal: ctx.signal });
    return ideJson(selection === null ? { success: false, message: "No active editor found" } : { success: true, ...selection });
  },
});
