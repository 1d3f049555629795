// FormattingOptions for textDocument/formatting and rangeFormatting: the file's own indentation
// (tabs, or its smallest indent in spaces), so a server without project settings keeps the style.
import type { FormattingOptions } from "vscode-languageserver-protocol";

export function formattingOptionsFor(lines: readonly string[]): FormattingOptions {
  let tabs = 0;
  let smallest = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.startsWith("\t")) tabs += 1;
    const spaces = /^( +)\S/.exec(line)?.[1]?.length;
    if (spaces !== undefined && spaces < smallest) smallest = spaces;
  }
  const spaced = Number.isFinite(smallest) ? smallest : 0;
  if (tabs > 0 && tabs >= lines.filter((l) => /^ +\S/.test(l)).length)
    return { tabSize: 4, insertSpaces: false, trimFinalNewlines: true, insertFinalNewline: true };
  return { tabSize: spaced >= 2 && spaced <= 8 ? spaced : 2, insertSpaces: true, trimFinalNewlines: true, insertFinalNewline: true };
}
