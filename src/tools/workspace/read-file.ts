// readFile: a text file as numbered lines, the way Claude Code's own Read shows files ("12\tcode"),
// within a budget sized for a model's context; the last line says how to page on when it was cut.
// Plain text, not JSON: Claude Code shows the model only structured content when there is any.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { readLines, type LinesRead } from "../../workspace/read-lines.ts";
import type { OpenedFile } from "../../workspace/workspace-fs.ts";
import { defineTool } from "../platform/define-tool.ts";

const DEFAULT_MAX_BYTES = 64 * 1024;
const MAX_BYTES_LIMIT = 1024 * 1024;
/** Without an endLine, this many lines at most (Claude Code's Read reads 2,000 too). */
const DEFAULT_MAX_LINES = 2000;
const SNIFF_BYTES = 8192;
/** More control characters than this share of the first 8 KB means binary, not text. */
const CONTROL_SHARE = 0.1;

const line = (what: string) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what)));

export default defineTool({
  name: "readFile",
  title: "Read file",
  description:
    "Reads a text file in the workspace as numbered lines, whole or a 1-based line range; says how to page on when cut. Refuses binary files.",
  searchHint: "read file contents view source code lines open",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("Relative or absolute path.")),
    startLine: line("First line to return (1-based, default 1)."),
    endLine: line(`Inclusive last line (default: ${DEFAULT_MAX_LINES} lines on).`),
    maxBytes: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_BYTES_LIMIT), v.description("Most bytes returned.")),
      DEFAULT_MAX_BYTES,
    ),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const startLine = input.startLine ?? 1;
    if (input.endLine !== undefined && input.endLine < startLine) {
      throw new ToolError("invalid_arguments", `endLine (${input.endLine}) is before startLine (${startLine})`, {
        suggestion: "Pass an endLine at or after startLine, or leave it out.",
      });
    }
    const file = await ctx.fs.openFile(input.path);
    try {
      await refuseBinary(file, input.path);
      const read = await readLines(file, file.stat.size, {
        startLine,
        endLine: input.endLine,
        maxLines: DEFAULT_MAX_LINES,
        maxBytes: input.maxBytes,
      });
      if (read.lines.length === 0 && read.totalLines !== undefined && startLine > Math.max(read.totalLines, 1)) {
        throw new ToolError("invalid_arguments", `startLine ${startLine} is past the end of ${input.path} (${read.totalLines} lines)`, {
          suggestion: `Pass a startLine from 1 to ${Math.max(read.totalLines, 1)}.`,
        });
      }
      return render(read, startLine, input, displayName(ctx.fs.relative(file.path)));
    } finally {
      await file.close();
    }
  },
});

async function refuseBinary(file: OpenedFile, label: string): Promise<void> {
  const head = await file.read(0, SNIFF_BYTES);
  if (head.includes(0)) {
    throw new ToolError("binary_file", `${label} looks binary (it has a NUL byte in its first 8 KB)`, {
      suggestion: "Only text files can be read; find what you need with findFiles or by its file type.",
    });
  }
  let control = 0;
  for (const byte of head)
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) || byte === 0x7f) control++;
  if (head.length > 0 && control / head.length > CONTROL_SHARE) {
    throw new ToolError(
      "binary_file",
      `${label} looks binary (${Math.round((100 * control) / head.length)}% control characters in its first 8 KB)`,
      { suggestion: "Only text files can be read." },
    );
  }
}

function render(read: LinesRead, startLine: number, input: { endLine?: number | undefined; maxBytes: number }, name: string): string {
  if (read.totalLines === 0) return `[${name} is empty]`;
  let crlf = false;
  // Tab after the number, as Claude Code's Read; ":" when the line itself starts with a tab.
  const body = read.lines.map((text, i) => {
    const cr = text.endsWith("\r");
    crlf ||= cr;
    const shown = cr ? text.slice(0, -1) : text;
    return `${startLine + i}${shown.startsWith("\t") ? ":" : "\t"}${shown}`;
  });
  const notes: string[] = [];
  if (read.partialLine)
    notes.push(`line ${read.endLine} is longer than maxBytes (${input.maxBytes}) and was cut; raise maxBytes to see it whole`);
  else if (read.stoppedBy === "maxBytes" || read.stoppedBy === "maxLines") notes.push(pagingNote(read, startLine, input));
  if (crlf) notes.push("the file has CRLF line endings");
  return notes.length === 0 ? body.join("\n") : `${body.join("\n")}\n[${notes.join("; ")}]`;
}

function pagingNote(read: LinesRead, startLine: number, input: { endLine?: number | undefined; maxBytes: number }): string {
  const of = read.totalLines === undefined ? "" : ` of ${read.totalLines}`;
  const why = read.stoppedBy === "maxBytes" ? `maxBytes (${input.maxBytes}) reached` : `${DEFAULT_MAX_LINES}-line default reached`;
  const until = input.endLine === undefined ? "" : ` and endLine ${input.endLine}`;
  return `showing lines ${startLine}-${read.endLine}${of}, ${why}; continue with startLine ${read.endLine + 1}${until}`;
}
