// Claude Code's IDE link: openFile (protocol.md A4), with claudecode.nvim's startLine/endLine too.
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { editorFile, ideJson } from "../editor-files.ts";

export default defineTool({
  name: "openFile",
  description: "Opens a file in the editor, optionally selecting from startText to endText or a line range.",
  searchHint: "open file editor show select text",
  input: v.strictObject({
    filePath: v.string(),
    preview: v.optional(v.boolean(), false),
    startText: v.optional(v.string()),
    endText: v.optional(v.string()),
    selectToEndOfLine: v.optional(v.boolean(), false),
    makeFrontmost: v.optional(v.boolean(), true),
    startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    endLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  annotations: { readOnlyHint: true },
  async viaExtension(input, ctx) {
    const file = await editorFile(ctx, input.filePath, { mustExist: true });
    const opened = await ctx.extension.request(
      "extension/openFile",
      {
        filePath: file.path,
        preview: input.preview,
        startText: input.startText,
        endText: input.endText,
        selectToEndOfLine: input.selectToEndOfLine,
        makeFrontmost: input.makeFrontmost,
        startLine: input.startLine,
        endLine: input.endLine,
      },
      { signal: ctx.signal },
    );
    if (input.makeFrontmost) return `Opened file: ${file.path}`;
    return ideJson({ success: true, filePath: file.path, languageId: opened.languageId, lineCount: opened.lineCount });
  },
});
