// Positions as the model gives them (1-based line, optional 1-based column, a symbol name) turned
// into LSP positions (0-based, UTF-16, which is how JavaScript strings count). Models are poor at
// columns, so a symbol is located on its line: as a whole word first, then anywhere in the line,
// then on the lines nearby.
import type { Position } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";

/** How far from the given line a symbol is still looked for (models are often a line or two off). */
const NEARBY_LINES = 3;

export interface PositionInput {
  line: number;
  column?: number | undefined;
  symbol?: string | undefined;
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function lspPosition(lines: readonly string[], input: PositionInput, opts: { file: string }): Position {
  const { file } = opts;
  if (input.line < 1 || input.line > lines.length) {
    throw new ToolError("invalid_arguments", `line ${input.line} is outside ${file} (${lines.length} lines)`, {
      suggestion: `Pass a line from 1 to ${lines.length}.`,
    });
  }
  if (input.symbol !== undefined && input.symbol !== "") return locateSymbol(lines, input.line - 1, input.symbol, file);
  const text = lines[input.line - 1] ?? "";
  if (input.column === undefined) {
    throw new ToolError("invalid_arguments", "Pass `symbol` (the name on that line) or `column`", {
      suggestion: `e.g. {"file": "${file}", "line": ${input.line}, "symbol": "${firstWord(text) ?? "name"}"}`,
    });
  }
  if (input.column < 1 || input.column > text.length + 1) {
    throw new ToolError(
      "invalid_arguments",
      `column ${input.column} is outside line ${input.line} of ${file} (${text.length} characters)`,
      { suggestion: "Pass `symbol` instead of a column: the name is located on the line." },
    );
  }
  return { line: input.line - 1, character: input.column - 1 };
}

function locateSymbol(lines: readonly string[], line: number, symbol: string, file: string): Position {
  const order = [line];
  for (let d = 1; d <= NEARBY_LINES; d++) order.push(line - d, line + d);
  const candidates = order.filter((l) => l >= 0 && l < lines.length);
  for (const find of [wholeWord, anywhere]) {
    for (const l of candidates) {
      const at = find(lines[l] ?? "", symbol);
      if (at >= 0) return { line: l, character: at };
    }
  }
  throw new ToolError(
    "symbol_not_found",
    `"${symbol}" is not on line ${line + 1} of ${file} (nor within ${NEARBY_LINES} lines of it); the line is: ${(lines[line] ?? "").trim().slice(0, 120)}`,
    {
      suggestion: "Check the line number (readFile shows numbered lines), or find the symbol first with navigateToSymbolByName.",
    },
  );
}

function wholeWord(text: string, symbol: string): number {
  const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_$]/u.test(ch);
  for (let at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + 1)) {
    if (!isWord(text[at - 1]) && !isWord(text[at + symbol.length])) return at;
  }
  return -1;
}

function anywhere(text: string, symbol: string): number {
  return text.indexOf(symbol);
}

function firstWord(text: string): string | undefined {
  return /[A-Za-z_$][\w$]*/.exec(text)?.[0];
}
