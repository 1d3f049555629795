// closeTab: closes a file's tabs in VS Code. A tab with unsaved changes is left open (VS Code would
// ask the user), and the answer says so.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { editorFile } from "./editor-files.ts";

export default defineTool({
  name: "closeTab",
  title: "Close editor tab",
  description: "Closes the VS Code tabs showing a file; tabs with unsaved changes stay open.",
  searchHint: "close tab editor file",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("File whose tabs to close, relative to the workspace root.")),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.file, { mustExist: false });
    const { closed } = await ctx.extension.request("extension/closeTab", { filePath: file.path }, { signal: ctx.signal });
    return closed === 0
      ? `No tab of ${file.relative} could be closed (none open, or it has unsaved changes).`
      : `Closed ${closed} tab(s) of ${file.relative}.`;
  },
});
