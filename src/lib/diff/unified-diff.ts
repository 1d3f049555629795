// Renders what an edit changed as a unified diff (the format of `diff -u` and `git diff`), the way a
// model expects to read it: "---"/"+++" headers, "@@ -l,s +l,s @@" hunks with three lines of
// context, removed lines before added ones in each change. Short on purpose: past `maxLines` the
// diff is cut with a line saying how much is left out. Line endings are not shown ("\r" is dropped
// from the display), but a missing final newline is, as diff does.
import { diffLines, type DiffOp } from "./line-diff.ts";

interface UnifiedDiffOptions {
  /** Shown in the headers as a/<path> and b/<path>; /dev/null for a created or deleted file. */
  oldPath: string;
  newPath: string;
  context?: number;
  maxLines?: number;
}

interface UnifiedDiff {
  /** "" when nothing changed. */
  text: string;
  added: number;
  removed: number;
}

const DEFAULT_CONTEXT = 3;
const DEFAULT_MAX_LINES = 400;
/** A minified line is cut in the display; the file itself is not. */
const MAX_SHOWN_LINE = 1000;
const NO_NEWLINE = "\\ No newline at end of file";

interface Side {
  lines: string[];
  /** The text ends without a newline (its last line is then marked). */
  open: boolean;
}

export function unifiedDiff(oldText: string, newText: string, opts: UnifiedDiffOptions): UnifiedDiff {
  const before = splitSide(oldText);
  const after = splitSide(newText);
  // The last line's key says whether a newline follows, so adding one at the end is a change.
  const keys = (s: Side) => s.lines.map((l, i) => (i === s.lines.length - 1 && s.open ? `${l}\u0000open` : l));
  const ops = diffLines(keys(before), keys(after));
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === "insert") added += op.count;
    if (op.kind === "delete") removed += op.count;
  }
  if (added === 0 && removed === 0) return { text: "", added, removed };
  const body = hunks(ops, opts.context ?? DEFAULT_CONTEXT).flatMap((h) => renderHunk(h, before, after));
  const maxLines = opts.maxLines ?? DEFAULT_MAX_LINES;
  const shown =
    body.length > maxLines
      ? [
          ...body.slice(0, maxLines),
          `[diff cut: ${body.length - maxLines} more lines (+${added} -${removed} in all); previewEdit or getBufferContent shows the rest]`,
        ]
      : body;
  return { text: [`--- ${opts.oldPath}`, `+++ ${opts.newPath}`, ...shown].join("\n"), added, removed };
}

function splitSide(text: string): Side {
  if (text === "") return { lines: [], open: false };
  const lines = text.split("\n");
  const open = lines[lines.length - 1] !== "";
  if (!open) lines.pop();
  return { lines, open };
}

/** Groups of ops, each a run of changes with up to `context` equal lines around it. */
function hunks(ops: readonly DiffOp[], context: number): DiffOp[][] {
  const groups: DiffOp[][] = [];
  let current: DiffOp[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== "equal") {
      current.push(op);
      return;
    }
    const last = i === ops.length - 1;
    // Only the first run can find no hunk open: it leads into the first change.
    if (current.length === 0) {
      if (!last) current.push(trimmed(op, Math.max(0, op.count - context), context));
      return;
    }
    if (last || op.count > 2 * context) {
      current.push(trimmed(op, 0, Math.min(context, op.count)));
      groups.push(current);
      current = last ? [] : [trimmed(op, op.count - Math.min(context, op.count), context)];
    } else {
      current.push(op);
    }
  });
  if (current.some((op) => op.kind !== "equal")) groups.push(current);
  return groups;
}

function trimmed(op: DiffOp, skip: number, keep: number): DiffOp {
  return { kind: "equal", oldStart: op.oldStart + skip, newStart: op.newStart + skip, count: Math.min(keep, op.count - skip) };
}

function renderHunk(ops: readonly DiffOp[], before: Side, after: Side): string[] {
  const first = ops[0] as DiffOp;
  const oldCount = ops.reduce((n, op) => n + (op.kind === "insert" ? 0 : op.count), 0);
  const newCount = ops.reduce((n, op) => n + (op.kind === "delete" ? 0 : op.count), 0);
  const out = [`@@ -${range(first.oldStart, oldCount)} +${range(first.newStart, newCount)} @@`];
  const line = (prefix: string, side: Side, index: number) => {
    out.push(`${prefix}${shown(side.lines[index] ?? "")}`);
    if (side.open && index === side.lines.length - 1) out.push(NO_NEWLINE);
  };
  // Within one change, all removed lines first, then all added ones.
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (const i of removed) line("-", before, i);
    for (const i of added) line("+", after, i);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    for (let j = 0; j < op.count; j++) {
      if (op.kind === "delete") removed.push(op.oldStart + j);
      else if (op.kind === "insert") added.push(op.newStart + j);
      else {
        flush();
        line(" ", before, op.oldStart + j);
      }
    }
  }
  flush();
  return out;
}

/** "start,count" as diff writes it: 1-based, ",1" left out, and an empty range named by the line before it. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

function shown(text: string): string {
  const line = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line.length > MAX_SHOWN_LINE ? `${line.slice(0, MAX_SHOWN_LINE)}… [${line.length - MAX_SHOWN_LINE} more characters]` : line;
}
