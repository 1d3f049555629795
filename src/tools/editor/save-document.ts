// saveDocument: saves what VS Code holds unsaved for a file (its formatters on save run too).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { editorFile } from "./editor-files.ts";

export default defineTool({
  name: "saveDocument",
  title: "Save document",
  description: "Saves a file open in VS Code, writing its unsaved editor changes to disk.",
  searchHint: "save document file editor unsaved changes write buffer",
  input: v.strictObject({ file: v.pipe(v.string(), v.minLength(1), v.description("File to save, relative to the workspace root.")) }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.file, { mustExist: false });
    const result = await ctx.extension.request("extension/saveDocument", { filePath: file.path }, { signal: ctx.signal });
    if (!result.open)
      throw new ToolError("file_not_found", `${file.relative} is not open in VS Code: nothing unsaved to write`, {
        suggestion: "The file on disk is already what it holds; read it with readFile.",
      });
    if (!result.saved)
      throw new ToolError("tool_failed", `VS Code did not save ${file.relative}: ${result.message}`, {
        suggestion: "Check the VS Code window (a save conflict or a read-only file asks the user).",
      });
    return `Saved ${file.relative}.`;
  },
});
