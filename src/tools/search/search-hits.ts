// What a search found, whichever engine found it (rg or the built-in one), and how it is shown:
// grouped per file, "12: text" for a matching line and "13- text" for a context line (grep's
// convention), "--" between separate runs, cut at maxResults matching lines and at the result cap
// with a line that says so. Both engines produce this model, so their answers are the same text.
import { displayName } from "../../lib/text/display-name.ts";

interface HitLine {
  /** 1-based. */
  readonly n: number;
  readonly text: string;
  readonly match: boolean;
}

export interface FileHits {
  /** Root-relative, not yet escaped. */
  readonly path: string;
  readonly lines: readonly HitLine[];
}

/** A line longer than this is cut in the display (minified code). */
const MAX_SHOWN_LINE = 400;
/** Room kept under the result cap for the closing line. */
const CLOSING_ROOM = 400;

/** The lines of a file to show: the matching ones and `context` lines around each, merged. */
export function withContext(lines: readonly string[], matching: readonly number[], opts: { context: number }): HitLine[] {
  const { context } = opts;
  const out: HitLine[] = [];
  const isMatch = new Set(matching);
  let shownUntil = 0;
  for (const n of matching) {
    const from = Math.max(shownUntil + 1, n - context);
    const to = Math.min(lines.length, n + context);
    for (let k = from; k <= to; k++) out.push({ n: k, text: lines[k - 1] as string, match: isMatch.has(k) });
    shownUntil = Math.max(shownUntil, to);
  }
  return out;
}

interface RenderOptions {
  maxResults: number;
  maxChars: number;
  /** Context lines asked for: only then are separate runs marked with "--", as grep does. */
  context: number;
}

/** Files in path order; the text the model reads. */
export function renderHits(files: readonly FileHits[], opts: RenderOptions): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = sorted.reduce((n, f) => n + f.lines.filter((l) => l.match).length, 0);
  if (total === 0) return "[no matches]";
  const out: string[] = [];
  let length = 0;
  let shown = 0;
  let shownFiles = 0;
  let cutBy: "maxResults" | "cap" | undefined;
  const push = (line: string) => {
    out.push(line);
    length += line.length + 1;
  };
  const room = opts.maxChars - CLOSING_ROOM;
  eachFile: for (const file of sorted) {
    if (shown >= opts.maxResults) {
      cutBy = "maxResults";
      break;
    }
    const header = displayName(file.path);
    if (length + header.length + 2 > room) {
      cutBy = "cap";
      break;
    }
    if (out.length > 0) push("");
    push(header);
    shownFiles++;
    let last = -1;
    for (const line of file.lines) {
      if (line.match && shown >= opts.maxResults) {
        cutBy = "maxResults";
        break eachFile;
      }
      const text = `${line.n}${line.match ? ":" : "-"} ${shownLine(line.text)}`;
      const gap = opts.context > 0 && last >= 0 && line.n > last + 1;
      if (length + text.length + (gap ? 3 : 0) + 1 > room) {
        cutBy = "cap";
        break eachFile;
      }
      if (gap) push("--");
      push(text);
      last = line.n;
      if (line.match) shown++;
    }
  }
  push("");
  push(closing(cutBy, { total, shown, shownFiles, files: sorted.length }, opts));
  return out.join("\n");
}

/** Files only: each file with its count of matching lines ("src/a.ts (3)"), in path order, cut at maxResults files. */
export function renderFileCounts(files: readonly FileHits[], opts: Omit<RenderOptions, "context">): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counted = sorted
    .map((f) => ({ name: displayName(f.path), count: f.lines.filter((l) => l.match).length }))
    .filter((f) => f.count > 0);
  if (counted.length === 0) return "[no matches]";
  const out: string[] = [];
  let length = 0;
  for (const file of counted) {
    const line = `${file.name} (${file.count})`;
    if (out.length >= opts.maxResults || length + line.length + 1 > opts.maxChars - CLOSING_ROOM) break;
    out.push(line);
    length += line.length + 1;
  }
  const total = counted.reduce((n, f) => n + f.count, 0);
  const closingLine =
    out.length < counted.length
      ? `[${out.length} of ${counted.length} files shown (cut at ${out.length === opts.maxResults ? `maxResults, ${opts.maxResults}` : "the result cap"}): narrow the path or include globs, or raise maxResults]`
      : `[${total} matching line${total === 1 ? "" : "s"} in ${counted.length} file${counted.length === 1 ? "" : "s"}]`;
  return `${out.join("\n")}\n\n${closingLine}`;
}

/**
 * The last line. When the results were cut it names only what was shown: an engine may stop
 * looking once it has more than maxResults, so totals past that are not known the same way.
 */
function closing(
  cutBy: "maxResults" | "cap" | undefined,
  n: { total: number; shown: number; shownFiles: number; files: number },
  opts: RenderOptions,
): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  if (cutBy === "maxResults")
    return `[results cut at maxResults (${opts.maxResults} matching lines, in ${plural(n.shownFiles, "file")}): narrow the pattern, path or include globs, or raise maxResults, to see the rest]`;
  if (cutBy === "cap")
    return `[results cut at the bridge's result cap (${opts.maxChars} characters) after ${plural(n.shown, "matching line")} in ${plural(n.shownFiles, "file")}: narrow the search to see the rest]`;
  return `[${plural(n.total, "matching line")} in ${plural(n.files, "file")}]`;
}

/** The files, in path order, up to the one holding matching line `limit` (enough to render and to know more exist). */
export function firstHits(files: readonly FileHits[], limit: number): FileHits[] {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: FileHits[] = [];
  let count = 0;
  for (const file of sorted) {
    if (count >= limit) break;
    out.push(file);
    count += file.lines.filter((l) => l.match).length;
  }
  return out;
}

function shownLine(text: string): string {
  const line = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line.length > MAX_SHOWN_LINE ? `${line.slice(0, MAX_SHOWN_LINE)}… [${line.length - MAX_SHOWN_LINE} more characters]` : line;
}
