// Positions as the model gives them (1-based line, optional 1-based column, a symbol name) turned
// into LSP positions (0-based, UTF-16, which is how JavaScript strings count). Models are poor at
// columns, so a symbol is located on its line by name, but never by a guess the answer hides: two
// whole-word matches on the line without a column are an error listing both; a name found only as
// part of a longer one is an error naming that one; a name found on a nearby line (models are often
// a line or two off) is used with a note saying so, which the tool puts in its answer.
import type { Position } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";

/** How far from the given line a symbol is still looked for. */
const NEARBY_LINES = 3;

export interface PositionInput {
  line: number;
  column?: number | undefined;
  symbol?: string | undefined;
}

export interface Located {
  position: Position;
  /** Said in the answer when the symbol was not where the caller put it ("found on line 7, not 5"). */
  note?: string;
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function lspPosition(lines: readonly string[], input: PositionInput, opts: { file: string }): Located {
  const { file } = opts;
  if (input.line < 1 || input.line > lines.length) {
    throw new ToolError("invalid_arguments", `line ${input.line} is outside ${file} (${lines.length} lines)`, {
      suggestion: `Pass a line from 1 to ${lines.length}.`,
    });
  }
  const text = lines[input.line - 1] ?? "";
  if (input.column !== undefined && (input.column < 1 || input.column > text.length + 1)) {
    throw new ToolError(
      "invalid_arguments",
      `column ${input.column} is outside line ${input.line} of ${file} (${text.length} characters)`,
      { suggestion: "Pass `symbol` instead of a column: the name is located on the line." },
    );
  }
  if (input.symbol !== undefined && input.symbol !== "") return locateSymbol(lines, { ...input, symbol: input.symbol }, file);
  if (input.column === undefined) {
    throw new ToolError("invalid_arguments", "Pass `symbol` (the name on that line) or `column`", {
      suggestion: `e.g. {"file": "${file}", "line": ${input.line}, "symbol": "${firstWord(text) ?? "name"}"}`,
    });
  }
  return { position: { line: input.line - 1, character: input.column - 1 } };
}

function locateSymbol(lines: readonly string[], input: PositionInput & { symbol: string }, file: string): Located {
  const { symbol } = input;
  const line = input.line - 1;
  const here = wholeWords(lines[line] ?? "", symbol);
  if (here.length > 0) return { position: { line, character: pick(here, { ...input, line }, file) } };
  // Nearest lines first; two lines at the same distance are as likely as each other.
  for (let d = 1; d <= NEARBY_LINES; d++) {
    const found = [line - d, line + d]
      .filter((l) => l >= 0 && l < lines.length)
      .map((l) => ({ l, at: wholeWords(lines[l] ?? "", symbol) }))
      .filter((f) => f.at.length > 0);
    const only = found[0];
    if (found.length > 1)
      throw new ToolError(
        "match_ambiguous",
        `"${symbol}" is not on line ${line + 1} of ${file}, but on lines ${found.map((f) => f.l + 1).join(" and ")}, equally near`,
        { suggestion: `Pass the line it is on (${found.map((f) => f.l + 1).join(" or ")}).` },
      );
    if (only !== undefined) {
      const character = pick(only.at, { symbol, line: only.l }, file);
      return {
        position: { line: only.l, character },
        note: `"${symbol}" is on line ${only.l + 1} of ${file}, not ${line + 1}: answered for line ${only.l + 1}.`,
      };
    }
  }
  const containing = longerNames(lines[line] ?? "", symbol);
  if (containing.length > 0)
    throw new ToolError(
      "symbol_not_found",
      `"${symbol}" is not a whole name on line ${line + 1} of ${file}: it is part of ${containing.map((c) => `"${c.name}" (column ${c.at + 1})`).join(", ")}`,
      { suggestion: `Pass the exact name as written, e.g. symbol "${containing[0]?.name}", or check the line.` },
    );
  throw new ToolError(
    "symbol_not_found",
    `"${symbol}" is not on line ${line + 1} of ${file} (nor within ${NEARBY_LINES} lines of it); the line is: ${(lines[line] ?? "").trim().slice(0, 120)}`,
    {
      suggestion: "Check the line number (readFile shows numbered lines), or find the symbol first with navigateToSymbolByName.",
    },
  );
}

/** One of a line's matches: the only one, or the one at (or nearest) the given column; several without a column are an error. */
function pick(starts: readonly number[], input: { symbol: string; line: number; column?: number | undefined }, file: string): number {
  const only = starts[0] as number;
  if (starts.length === 1) return only;
  const { column, symbol } = input;
  if (column !== undefined) {
    const at = column - 1;
    const inside = starts.find((s) => at >= s && at <= s + symbol.length);
    return inside ?? [...starts].sort((a, b) => Math.abs(a - at) - Math.abs(b - at))[0] ?? only;
  }
  const columns = starts.map((s) => s + 1);
  throw new ToolError(
    "match_ambiguous",
    `"${symbol}" occurs ${starts.length} times on line ${input.line + 1} of ${file}, at columns ${columns.join(" and ")}`,
    { suggestion: `Pass column too (${columns.join(" or ")}) to say which one.` },
  );
}

const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_$]/u.test(ch);

/** Start offsets of `symbol` as a whole word in `text`. */
export function wholeWords(text: string, symbol: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + 1)) {
    if (!isWord(text[at - 1]) && !isWord(text[at + symbol.length])) out.push(at);
  }
  return out;
}

/** The longer names of `text` that contain `symbol`, each once, where they start. */
function longerNames(text: string, symbol: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  for (let at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + 1)) {
    let start = at;
    let end = at + symbol.length;
    while (start > 0 && isWord(text[start - 1])) start--;
    while (end < text.length && isWord(text[end])) end++;
    const name = text.slice(start, end);
    if (!out.some((o) => o.at === start)) out.push({ name, at: start });
  }
  return out;
}

function firstWord(text: string): string | undefined {
  return /[A-Za-z_$][\w$]*/.exec(text)?.[0];
}
