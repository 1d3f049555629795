// Inputs and helpers the whole-file LSP tools share (folding ranges, code lens, links, inlay hints,
// semantic tokens): a file, an optional 1-based line range, and ranges shown as 1-based spans.
import * as v from "valibot";
import type { Range } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";

const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const fileField = { file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")) };

export const lineRangeFields = {
  startLine: v.optional(line("1-based first line (default 1).")),
  endLine: v.optional(line("Inclusive last line (default: the file's last).")),
};

/** The LSP range of lines `startLine..endLine` (1-based, inclusive) of a file, checked against its length. */
export function linesRange(lines: readonly string[], input: { startLine?: number | undefined; endLine?: number | undefined }): Range {
  const start = input.startLine ?? 1;
  const end = Math.min(input.endLine ?? lines.length, lines.length);
  if (start > lines.length || end < start)
    throw new ToolError(
      "invalid_arguments",
      `lines ${start}-${input.endLine ?? lines.length} are not a range of a ${lines.length}-line file`,
      {
        suggestion: `Pass startLine <= endLine within 1-${lines.length}.`,
      },
    );
  return { start: { line: start - 1, character: 0 }, end: { line: end - 1, character: (lines[end - 1] ?? "").length } };
}

/** "12:5-12:9" (1-based; the end is exclusive, as the server gave it). */
export function span(range: Range): string {
  const { start, end } = range;
  return `${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}`;
}

/** The text a range covers, on one line, clipped: what a model reads to recognise it. */
export function textOf(lines: readonly string[], range: Range): string {
  const max = 60;
  const { start, end } = range;
  const parts: string[] = [];
  for (let l = start.line; l <= end.line && l < lines.length; l++) {
    const text = lines[l] ?? "";
    parts.push(text.slice(l === start.line ? start.character : 0, l === end.line ? end.character : undefined));
  }
  const flat = parts.join("⏎").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
