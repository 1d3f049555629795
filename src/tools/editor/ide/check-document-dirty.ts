// Claude Code's IDE link: checkDocumentDirty (protocol.md A4).
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { editorFile, ideJson } from "../editor-files.ts";

export default defineTool({
  name: "checkDocumentDirty",
  description: "Checks whether a document open in the editor has unsaved changes.",
  searchHint: "dirty unsaved changes document",
  input: v.strictObject({ filePath: v.string() }),
  annotations: { readOnlyHint: true },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.filePath, { mustExist: false });
    const found = await ctx.extension.request("extension/checkDocumentDirty", { filePath: file.path }, { signal: ctx.signal });
    if (!found.open) return ideJson({ success: false, message: `Document not open: ${input.filePath}` });
    return ideJson({ success: true, filePath: input.filePath, isDirty: found.isDirty, isUntitled: found.isUntitled });
  },
});
