// replaceBlock's search: the exact text, once. A miss or several hits is an error that shows the
// model where to look: the places that come closest (line numbers and the lines themselves, and
// whether they match but for whitespace), or every line where the text occurs. Finding candidates
// is bounded: every line is scored against the block's first and last lines, and only the best
// few starts are scored in full.
import { ToolError } from "../../errors.ts";
import { LineIndex } from "../../services/documents/line-index.ts";

/** Places shown for a miss, and the lines shown of each. */
const CANDIDATES = 3;
const SHOWN_LINES = 6;
const FULL_SCORES = 40;
const SHOWN_OCCURRENCES = 20;
/** Characters of a line compared for similarity: enough to tell lines apart, bounded for minified ones. */
const COMPARED_CHARS = 500;

interface BlockChoice {
  /** 1-based: which of several occurrences to replace. */
  occurrence?: number | undefined;
  replaceAll?: boolean | undefined;
}

/** Offsets of the occurrences to replace. */
export function findBlock(doc: { text: string; label: string }, block: string, choice: BlockChoice): number[] {
  const { text, label } = doc;
  if (block === "")
    throw new ToolError("invalid_arguments", "oldContent is empty", {
      suggestion: "Pass the exact text to replace; to insert, use editText.",
    });
  const found: number[] = [];
  for (let at = text.indexOf(block); at >= 0; at = text.indexOf(block, at + block.length)) found.push(at);
  if (found.length === 0) throw notFound(text, block, label);
  if (choice.replaceAll) return found;
  if (choice.occurrence !== undefined) {
    const pick = found[choice.occurrence - 1];
    if (pick === undefined)
      throw new ToolError(
        "match_ambiguous",
        `occurrence ${choice.occurrence} asked for, but oldContent occurs ${found.length} times in ${label}`,
        { suggestion: `Pass an occurrence from 1 to ${found.length}.` },
      );
    return [pick];
  }
  if (found.length > 1) {
    const index = new LineIndex(text);
    const lines = found.slice(0, SHOWN_OCCURRENCES).map((at) => index.lineOf(at));
    const more = found.length > SHOWN_OCCURRENCES ? ` and ${found.length - SHOWN_OCCURRENCES} more` : "";
    throw new ToolError(
      "match_ambiguous",
      `oldContent occurs ${found.length} times in ${label}, at lines ${lines.join(", ")}${more}; nothing was changed`,
      {
        suggestion: "Include more surrounding lines so it occurs once, or pass occurrence (1-based) or replaceAll: true.",
      },
    );
  }
  return found;
}

function notFound(text: string, block: string, label: string): ToolError {
  const index = new LineIndex(text);
  const want = block.replace(/\n$/, "").split("\n");
  const candidates = nearest(index, want);
  const shown = candidates.map((c) => {
    const lines = Array.from(
      { length: Math.min(want.length, SHOWN_LINES, index.lineCount - c.line + 1) },
      (_, j) => `  ${c.line + j}: ${index.lineText(c.line + j)}`,
    );
    const cut = want.length > SHOWN_LINES ? `\n  … (${want.length - SHOWN_LINES} more lines)` : "";
    const how = c.whitespaceOnly ? "matches but for whitespace" : `${Math.round(c.score * 100)}% similar`;
    return `line ${c.line} (${how}):\n${lines.join("\n")}${cut}`;
  });
  const where = shown.length === 0 ? "" : `; the nearest places:\n${shown.join("\n")}`;
  return new ToolError("match_not_found", `oldContent was not found in ${label}${where}`, {
    suggestion:
      "Copy oldContent exactly from the file (indentation and line endings included; getBufferContent shows it as saved), or edit by line with editText.",
  });
}

interface Candidate {
  line: number;
  score: number;
  whitespaceOnly: boolean;
}

function nearest(index: LineIndex, want: readonly string[]): Candidate[] {
  const n = index.lineCount;
  const k = want.length;
  if (n === 0) return [];
  const first = (want[0] as string).trim();
  const last = (want[k - 1] as string).trim();
  // Cheap pass: a start is promising when its first or its last line looks like the block's.
  const starts = new Map<number, number>();
  for (let line = 1; line <= n; line++) {
    const here = index.lineText(line).trim();
    const asFirst = similarity(here, first);
    const startForLast = line - k + 1;
    if (asFirst > (starts.get(line) ?? 0)) starts.set(line, asFirst);
    if (startForLast >= 1) {
      const asLast = similarity(here, last);
      if (asLast > (starts.get(startForLast) ?? 0)) starts.set(startForLast, asLast);
    }
  }
  const promising = [...starts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, FULL_SCORES)
    .map(([line]) => line);
  const scored = promising.map((line) => {
    let sum = 0;
    let whitespaceOnly = true;
    for (let j = 0; j < k; j++) {
      const have = line + j <= n ? index.lineText(line + j) : "";
      const wanted = want[j] as string;
      sum += similarity(have.trim(), wanted.trim());
      whitespaceOnly &&= line + j <= n && have.replace(/\s+/g, "") === wanted.replace(/\s+/g, "");
    }
    return { line, score: sum / k, whitespaceOnly };
  });
  return scored
    .filter((c) => c.score > 0.3)
    .sort((a, b) => Number(b.whitespaceOnly) - Number(a.whitespaceOnly) || b.score - a.score || a.line - b.line)
    .slice(0, CANDIDATES);
}

/** Dice's coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(whole: string, other: string): number {
  if (whole === other) return 1;
  const a = whole.slice(0, COMPARED_CHARS);
  const b = other.slice(0, COMPARED_CHARS);
  if (a.length < 2 || b.length < 2) return 0;
  const bigrams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const bg = a.slice(i, i + 2);
    bigrams.set(bg, (bigrams.get(bg) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const bg = b.slice(i, i + 2);
    const count = bigrams.get(bg) ?? 0;
    if (count > 0) {
      bigrams.set(bg, count - 1);
      common++;
    }
  }
  return (2 * common) / (a.length - 1 + b.length - 1);
}
