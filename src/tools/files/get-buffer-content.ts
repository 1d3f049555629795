// getBufferContent: a file's text as saved on disk, whole or a line range, with the content hash
// and mtime the edit tools take as expectedHash/expectedMtime. Headless, there is no editor buffer:
// what an editor holds unsaved is not seen (the VS Code extension will answer that once it exists).
// Unlike readFile, no line numbers: this is the text to copy into replaceBlock's oldContent.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LineIndex } from "../../services/documents/line-index.ts";
import { readDocument } from "../../services/documents/text-document.ts";

export default defineTool({
  name: "getBufferContent",
  title: "File content as saved",
  description:
    "Returns a file's text as saved on disk (unsaved editor changes are not seen headless), whole or a line range, with its content hash and mtime for the edit tools' expectedHash.",
  searchHint: "unsaved contents of an open editor buffer, or the file on disk; whole file text with hash and version",
  input: v.strictObject({
    filePath: v.pipe(v.string(), v.minLength(1), v.description("File to read, relative to the workspace root.")),
    startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("First line (1-based) of a range."))),
    endLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Last line of the range, inclusive."))),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const doc = await readDocument(ctx, input.filePath);
    const index = new LineIndex(doc.text);
    const total = index.lineCount;
    const start = input.startLine ?? 1;
    const end = Math.min(input.endLine ?? total, total);
    if (end < start && total > 0)
      throw new ToolError("invalid_arguments", `Lines ${start}-${input.endLine ?? total} are not in ${input.filePath} (${total} lines)`, {
        suggestion: `Ask for lines from 1 to ${total}.`,
      });
    const ranged = input.startLine !== undefined || input.endLine !== undefined;
    const body = ranged ? doc.text.slice(index.lineStart(start), index.lineAfter(end)) : doc.text;
    const facts = [`${ranged ? `lines ${start}-${end} of ${total}` : `${total} lines`}`, `hash ${doc.hash}`, `mtime ${doc.mtime}`];
    if (doc.crlf) facts.push("CRLF line endings (shown as \\n; edits keep CRLF)");
    else if (doc.eol === "\r\n" || doc.text.includes("\r\n")) facts.push("mixed line endings");
    if (doc.bom) facts.push("UTF-8 BOM");
    if (!ranged && doc.text !== "" && !doc.text.endsWith("\n")) facts.push("no newline at the end");
    const separator = body === "" || body.endsWith("\n") ? "" : "\n";
    return `${body}${separator}[${doc.label} as saved on disk: ${facts.join(", ")}]`;
  },
});
