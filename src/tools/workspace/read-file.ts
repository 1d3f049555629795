// readFile: a file's text, or a line range of it, bounded by a byte budget so one call cannot
// flood the model's context; the answer says how to page on when it was cut.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../define-tool.ts";
import { sliceLines } from "./line-slice.ts";

const MAX_BYTES_LIMIT = 4 * 1024 * 1024;
/** Files above this are not loaded even for a line range (the Fs reads whole files). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

const line = (what: string) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what)));

export default defineTool({
  name: "readFile",
  title: "Read file",
  description: "Reads a text file in the workspace, whole or a 1-based line range (startLine/endLine), up to maxBytes; says how to page on when truncated. Refuses binary files.",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("File path, relative to the workspace root, absolute, or a file:// URI.")),
    startLine: line("First line to return (1-based, default 1)."),
    endLine: line("Last line to return (inclusive, default: the last line)."),
    maxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_BYTES_LIMIT), v.description("Most bytes of content to return (default 262144, at most 4 MiB).")), 262_144),
  }),
  output: v.object({
    path: v.pipe(v.string(), v.description("Path relative to the workspace root.")),
    content: v.string(),
    startLine: v.number(),
    endLine: v.pipe(v.number(), v.description("Last line included; startLine - 1 when nothing was returned.")),
    totalLines: v.number(),
    truncated: v.boolean(),
    size: v.pipe(v.number(), v.description("File size in bytes.")),
    note: v.optional(v.pipe(v.string(), v.description("How to read the rest, when truncated."))),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const abs = await ctx.workspace.resolve(input.path);
    const st = await ctx.runtime.fs.stat(abs);
    if (st.isDirectory) {
      throw new ToolError("not_a_file", `${input.path} is a directory`, { suggestion: "List it with getFileTree, or search it with findFiles." });
    }
    // FIFOs and devices could block forever or never end.
    if (!st.isFile) throw new ToolError("not_a_file", `${input.path} is not a regular file`);
    if (st.size > MAX_FILE_BYTES) {
      throw new ToolError("file_too_large", `${input.path} is ${st.size} bytes; files over ${MAX_FILE_BYTES} bytes are not read`, {
        suggestion: "Search it for what you need instead of reading it.",
      });
    }
    const bytes = await ctx.runtime.fs.readFile(abs);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      throw new ToolError("binary_file", `${input.path} looks binary (it has a NUL byte in its first 8 KB)`);
    }
    const startLine = input.startLine ?? 1;
    if (input.endLine !== undefined && input.endLine < startLine) {
      throw new ToolError("invalid_arguments", `endLine (${input.endLine}) is before startLine (${startLine})`);
    }
    const slice = sliceLines(bytes, { startLine, endLine: input.endLine, maxBytes: input.maxBytes });
    if (startLine > Math.max(slice.totalLines, 1)) {
      throw new ToolError("invalid_arguments", `startLine ${startLine} is past the end of ${input.path} (${slice.totalLines} lines)`);
    }
    const result = {
      path: ctx.workspace.relative(abs),
      content: new TextDecoder().decode(bytes.subarray(slice.start, slice.end)),
      startLine: slice.startLine,
      endLine: slice.endLine,
      totalLines: slice.totalLines,
      truncated: slice.truncated,
      size: st.size,
    };
    if (!slice.truncated) return result;
    const next = slice.endLine + 1;
    const more = next <= slice.totalLines ? ` Continue with startLine ${next}${input.endLine !== undefined ? ` and endLine ${input.endLine}` : ""}.` : "";
    const note = slice.partialLine
      ? `Line ${slice.endLine} is longer than maxBytes (${input.maxBytes}) and was cut; raise maxBytes (up to ${MAX_BYTES_LIMIT}) to see it whole.${more}`
      : `Showing lines ${slice.startLine}-${slice.endLine} of ${slice.totalLines}; maxBytes (${input.maxBytes}) reached.${more}`;
    return { ...result, note };
  },
});
