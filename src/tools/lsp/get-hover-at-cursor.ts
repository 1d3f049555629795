// getHoverAtCursor: the hover at the user's cursor in VS Code, read from the editor state the
// extension pushed (no round trip to find it) and asked of VS Code's hover providers, which is what
// the user would see. Without the extension there is no cursor to read: the route says so.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { isInside, relative } from "../../lib/paths/posix-path.ts";
import { defineTool } from "../platform/define-tool.ts";
import { hoverViaVsCode } from "./vscode/hover.ts";

export default defineTool({
  name: "getHoverAtCursor",
  title: "Hover at the editor cursor",
  description:
    "Shows the hover (type, signature, docs) of the symbol under the user's cursor in VS Code; needs the extension connected (else use getHover with file and line).",
  searchHint: "hover at cursor what is under my cursor type of symbol at caret in the editor",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  slim: true,
  async viaExtension(_input, ctx) {
    const selection = ctx.extension.state.selection;
    if (selection === undefined)
      throw new ToolError("extension_required", "VS Code is connected but has not reported a cursor (no text editor has had the focus)", {
        suggestion: "Click into a file in VS Code and call again, or use getHover with file, line and symbol.",
      });
    // The cursor is where a selection starts: a selection's hover is of its first symbol.
    const cursor = selection.selection.isEmpty ? selection.selection.end : selection.selection.start;
    const file = fromFileUri(selection.fileUrl) ?? selection.filePath;
    const hover = await hoverViaVsCode({ file, line: cursor.line + 1, column: cursor.character + 1 }, ctx);
    const shown = isInside(file, ctx.fs.root) ? relative(ctx.fs.root, file) : file;
    return `Cursor at ${shown}:${cursor.line + 1}:${cursor.character + 1} (VS Code):\n${hover}`;
  },
});
