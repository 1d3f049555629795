// LSP TextEdits applied to a document's text as the server saw it: positions are 0-based lines and
// UTF-16 characters (how JavaScript strings count), a line ends at "\n", "\r\n" or "\r", and a
// character past a line's end means its end (LSP 3.17, "Position"). All edits of one
// TextDocumentEdit refer to the text before any of them, so they are applied from the end.
import type { Position, TextEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";

export function applyTextEdits(text: string, edits: readonly TextEdit[], opts: { file: string }): string {
  const { file } = opts;
  const starts = lineStarts(text);
  const located = edits.map((edit, order) => ({
    from: offsetOf(text, starts, edit.range.start),
    to: offsetOf(text, starts, edit.range.end),
    newText: edit.newText,
    order,
  }));
  // Same start: the order the server gave (two inserts at one place keep their order).
  located.sort((a, b) => a.from - b.from || a.order - b.order);
  for (let i = 1; i < located.length; i++) {
    const previous = located[i - 1];
    const current = located[i];
    if (previous !== undefined && current !== undefined && current.from < previous.to) {
      throw new ToolError("language_server_error", `The language server's edit of ${file} has overlapping changes; nothing was changed`, {
        suggestion: "Ask again; if it repeats, make the change by hand.",
      });
    }
  }
  let out = text;
  for (let i = located.length - 1; i >= 0; i--) {
    const edit = located[i];
    if (edit === undefined || edit.to < edit.from) continue;
    out = out.slice(0, edit.from) + edit.newText + out.slice(edit.to);
  }
  return out;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

function offsetOf(text: string, starts: readonly number[], position: Position): number {
  if (position.line >= starts.length) return text.length;
  const start = starts[position.line] ?? text.length;
  const next = starts[position.line + 1];
  // The line's end, before its line break.
  let end = next ?? text.length;
  if (next !== undefined) end -= text.slice(next - 2, next) === "\r\n" ? 2 : 1;
  return Math.min(start + Math.max(0, position.character), end);
}
