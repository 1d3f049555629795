// editText's edits: several line/column edits of one file, all against the file as it was read
// (no edit shifts the positions of another), checked together and applied together. Whole-line
// edits (no columns) keep the line structure: the text they put in becomes whole lines. Edits with
// columns are exact: the range [line:column, endLine:endColumn) becomes `text`, as written.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { LineIndex } from "../../services/documents/line-index.ts";

const Position = v.pipe(v.number(), v.integer(), v.minValue(1));

export const LineEdit = v.strictObject({
  type: v.pipe(v.picklist(["replace", "insert", "delete"]), v.description("What to do with the range.")),
  line: v.pipe(Position, v.description("1-based first line.")),
  column: v.optional(v.pipe(Position, v.description("1-based start column; none: whole lines."))),
  endLine: v.optional(v.pipe(Position, v.description("Inclusive last line (default: line)."))),
  endColumn: v.optional(v.pipe(Position, v.description("Exclusive end column."))),
  text: v.optional(v.pipe(v.string(), v.description("New text."))),
});
export type LineEdit = v.InferOutput<typeof LineEdit>;

interface Splice {
  from: number;
  to: number;
  text: string;
  index: number;
}

/** The text with every edit applied, or an invalid_edit error naming the first bad edit. */
export function applyLineEdits(text: string, edits: readonly LineEdit[], opts: { toFileEol: (text: string) => string }): string {
  const { toFileEol } = opts;
  const index = new LineIndex(text);
  const splices = edits.map((edit, i) => toSplice(index, edit, i, toFileEol));
  splices.sort((a, b) => a.from - b.from || a.to - a.from - (b.to - b.from) || a.index - b.index);
  for (let i = 1; i < splices.length; i++) {
    const prev = splices[i - 1] as Splice;
    const cur = splices[i] as Splice;
    if (prev.to > cur.from) {
      throw invalid(
        Math.max(prev.index, cur.index),
        `edits ${Math.min(prev.index, cur.index) + 1} and ${Math.max(prev.index, cur.index) + 1} overlap`,
        "Merge overlapping edits into one, or make their ranges disjoint (all positions refer to the file before any edit).",
      );
    }
  }
  let out = "";
  let at = 0;
  for (const s of splices) {
    out += text.slice(at, s.from) + s.text;
    at = s.to;
  }
  return out + text.slice(at);
}

function toSplice(index: LineIndex, edit: LineEdit, i: number, toFileEol: (text: string) => string): Splice {
  const fail = (why: string, suggestion: string) => invalid(i, why, suggestion);
  const lines = index.lineCount;
  const text = toFileEol(edit.text ?? "");
  if (edit.type !== "delete" && edit.text === undefined) throw fail(`a ${edit.type} needs text`, "Pass the new text in `text`.");
  if (edit.type === "delete" && edit.text !== undefined)
    throw fail("a delete takes no text", 'Use type "replace" to put text in place of the range.');
  if (edit.type === "insert" && (edit.endLine !== undefined || edit.endColumn !== undefined))
    throw fail("an insert has a position, not a range", 'Drop endLine/endColumn, or use type "replace".');
  const maxLine = edit.type === "insert" ? lines + 1 : lines;
  if (edit.line > Math.max(maxLine, 1))
    throw fail(`line ${edit.line} is past the end of the file (${lines} lines)`, `Use a line from 1 to ${Math.max(maxLine, 1)}.`);
  const endLine = edit.endLine ?? edit.line;
  if (edit.type !== "insert" && endLine < edit.line)
    throw fail(`endLine ${endLine} is before line ${edit.line}`, "Give an endLine at or after line.");
  if (edit.type !== "insert" && endLine > Math.max(lines, 1))
    throw fail(`endLine ${endLine} is past the end of the file (${lines} lines)`, `Use an endLine from ${edit.line} to ${lines}.`);
  const columns = edit.column !== undefined || edit.endColumn !== undefined;
  const offsetAt = (line: number, column: number, what: string) => {
    const length = index.lineEnd(line) - index.lineStart(line);
    if (column > length + 1)
      throw fail(
        `${what} ${column} is past the end of line ${line} (${length} characters)`,
        `Use a column from 1 to ${length + 1} (1-based, UTF-16 units).`,
      );
    return index.lineStart(line) + column - 1;
  };
  if (edit.type === "insert") {
    if (columns) {
      const at = offsetAt(edit.line, edit.column ?? 1, "column");
      return { from: at, to: at, text, index: i };
    }
    const at = index.lineStart(edit.line);
    return { from: at, to: at, text: asLines(index.text, text, at, { kind: "insert", newline: toFileEol("\n") }), index: i };
  }
  if (columns) {
    const from = offsetAt(edit.line, edit.column ?? 1, "column");
    const to = edit.endColumn === undefined ? index.lineEnd(endLine) : offsetAt(endLine, edit.endColumn, "endColumn");
    if (to < from) throw fail("the range ends before it starts", "Give an end position after the start.");
    return { from, to, text, index: i };
  }
  const from = index.lineStart(edit.line);
  const to = index.lineAfter(endLine);
  return { from, to, text: text === "" ? "" : asLines(index.text, text, to, { kind: "replace", newline: toFileEol("\n") }), index: i };
}

/**
 * `text` as whole lines ending at `end`: newline-terminated, except at the end of a file that has
 * no final newline, which stays without one (an insert there first ends the last line).
 */
function asLines(whole: string, text: string, end: number, how: { kind: "insert" | "replace"; newline: string }): string {
  const { newline } = how;
  const terminated = text.endsWith("\n") ? text : `${text}${newline}`;
  if (end < whole.length || whole === "" || whole.endsWith("\n")) return terminated;
  const open = terminated.endsWith(newline) ? terminated.slice(0, -newline.length) : terminated.replace(/\r?\n$/, "");
  return how.kind === "insert" ? `${newline}${open}` : open;
}

function invalid(i: number, why: string, suggestion: string): ToolError {
  return new ToolError("invalid_edit", `Edit ${i + 1}: ${why}; nothing was changed`, { suggestion });
}
