// getBufferContent: a file's text as saved on disk, whole or a line range, with the content hash
// and mtime the edit tools take as expectedHash/expectedMtime. Headless, there is no editor buffer:
// what an editor holds unsaved is not seen. With the VS Code extension, a file with unsaved changes
// is answered from VS Code's buffer (and says so); an unchanged one as saved, with its hash.
// Unlike readFile, no line numbers: this is the text to copy into replaceBlock's oldContent.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LineIndex } from "../../services/documents/line-index.ts";
import { readDocument } from "../../services/documents/text-document.ts";

export default defineTool({
  name: "getBufferContent",
  title: "File content as saved",
  description:
    "Returns a file's text, whole or a line range: VS Code's unsaved buffer when it has changes, else as saved with its hash and mtime for the edit tools.",
  searchHint: "unsaved contents of an open editor buffer, or the file on disk; whole file text with hash and version",
  input: v.strictObject({
    filePath: v.pipe(v.string(), v.minLength(1), v.description("File to read, relative to the workspace root.")),
    startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("First line (1-based) of a range."))),
    endLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Last line of the range, inclusive."))),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  handler: savedContent,
  async viaExtension(input, ctx) {
    const path = await ctx.fs.resolve(input.filePath);
    const doc = await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal });
    if (!doc.isDirty) return savedContent(input, ctx);
    const text = doc.eol === "\r\n" ? doc.text.replace(/\r\n/g, "\n") : doc.text;
    const index = new LineIndex(text);
    const { start, end, ranged } = lineRange(input, index.lineCount);
    const body = ranged ? text.slice(index.lineStart(start), index.lineAfter(end)) : text;
    const separator = body === "" || body.endsWith("\n") ? "" : "\n";
    const facts = [`${ranged ? `lines ${start}-${end} of ${index.lineCount}` : `${index.lineCount} lines`}`, `version ${doc.version}`];
    return `${body}${separator}[${ctx.fs.relative(path)} as open in VS Code, with UNSAVED changes (${facts.join(", ")}); the edit tools work on the saved file: save it first (saveDocument)]`;
  },
});

function lineRange(input: { filePath: string; startLine?: number; endLine?: number }, total: number) {
  const start = input.startLine ?? 1;
  const end = Math.min(input.endLine ?? total, total);
  if (end < start && total > 0)
    throw new ToolError("invalid_arguments", `Lines ${start}-${input.endLine ?? total} are not in ${input.filePath} (${total} lines)`, {
      suggestion: `Ask for lines from 1 to ${total}.`,
    });
  return { start, end, ranged: input.startLine !== undefined || input.endLine !== undefined };
}

async function savedContent(input: { filePath: string; startLine?: number; endLine?: number }, ctx: ToolContext): Promise<string> {
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
}
