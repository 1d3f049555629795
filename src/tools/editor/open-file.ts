// openFile: shows a file in VS Code for the user, at a line or a text range.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { editorFile } from "./editor-files.ts";

const line = (what: string) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what)));

export default defineTool({
  name: "openFile",
  title: "Open file in editor",
  description: "Opens a file in VS Code for the user, optionally selecting a line range or the text from startText to endText.",
  searchHint: "open file editor show user reveal line jump highlight",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("File to open, relative to the workspace root.")),
    line: line("1-based line to reveal and select."),
    endLine: line("Last line of the selection (with line)."),
    startText: v.optional(v.pipe(v.string(), v.description("Select from the first occurrence of this text..."))),
    endText: v.optional(v.pipe(v.string(), v.description("...to the end of the next occurrence of this."))),
    preview: v.optional(v.pipe(v.boolean(), v.description("Open as a preview tab (replaced by the next preview)."))),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.file, { mustExist: true });
    const opened = await ctx.extension.request(
      "extension/openFile",
      {
        filePath: file.path,
        preview: input.preview ?? false,
        startLine: input.line === undefined ? undefined : input.line - 1,
        endLine: input.endLine === undefined ? undefined : input.endLine - 1,
        startText: input.startText,
        endText: input.endText,
        makeFrontmost: true,
      },
      { signal: ctx.signal },
    );
    const at = input.line === undefined ? "" : ` at line ${input.line}${input.endLine !== undefined ? `-${input.endLine}` : ""}`;
    return `Opened ${file.relative}${at} in VS Code (${opened.languageId}, ${opened.lineCount} lines).`;
  },
});
