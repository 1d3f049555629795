// Claude Code's IDE link: saveDocument (protocol.md A4).
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { editorFile, ideJson } from "../editor-files.ts";

export default defineTool({
  name: "saveDocument",
  description: "Saves a document open in the editor, writing its unsaved changes to disk.",
  searchHint: "save document file editor",
  input: v.strictObject({ filePath: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.filePath, { mustExist: false });
    const result = await ctx.extension.request("extension/saveDocument", { filePath: file.path }, { signal: ctx.signal });
    if (!result.open) return ideJson({ success: false, message: `Document not open: ${input.filePath}` });
    if (!result.saved) return ideJson({ success: false, filePath: input.filePath, saved: false, message: result.message });
    return ideJson({ success: true, filePath: input.filePath, saved: true, message: "Document saved successfully" });
  },
});
