// checkDocumentDirty: whether VS Code holds unsaved changes of a file, before reading it from disk.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { editorFile } from "./editor-files.ts";

export default defineTool({
  name: "checkDocumentDirty",
  title: "Unsaved changes?",
  description: "Checks whether a file has unsaved changes in VS Code (so disk and editor differ).",
  searchHint: "dirty unsaved changes modified editor buffer differs from disk",
  input: v.strictObject({ file: v.pipe(v.string(), v.minLength(1), v.description("File to check, relative to the workspace root.")) }),
  output: v.object({
    open: v.pipe(v.boolean(), v.description("Open in VS Code.")),
    dirty: v.pipe(v.boolean(), v.description("Has unsaved changes (getBufferContent returns them).")),
  }),
  annotations: { readOnlyHint: true },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.file, { mustExist: false });
    const found = await ctx.extension.request("extension/checkDocumentDirty", { filePath: file.path }, { signal: ctx.signal });
    return { open: found.open, dirty: found.isDirty };
  },
});
