// A symbol's signature as its language server's hover gives it (the first code block), else its
// declaration's line; its documentation is the doc comment written in the source (the comment just
// above it, or a Python docstring just below), else the hover's prose, which some servers pad with
// their own headings and parameter lists.
import type { Hover } from "vscode-languageserver-protocol";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { markupText } from "../lsp-markup/markup.ts";

export interface SymbolDocs {
  signature: string;
  docs: string;
  /** "hover" or "source": where the signature was read. */
  from: "hover" | "source";
}

export async function symbolDocs(doc: LspDocument, at: { line: number; character: number }): Promise<SymbolDocs> {
  const hover = doc.server.supports("textDocument/hover")
    ? await doc.request<Hover | null>("textDocument/hover", { textDocument: { uri: doc.uri }, position: at }).catch(() => null)
    : null;
  const text = markupText(hover?.contents);
  const block = /```[^\n]*\n([\s\S]*?)\n?```/.exec(text);
  const fromSource = sourceDocs(doc.lines, at.line);
  if (block?.[1] === undefined) return { signature: declarationLine(doc.lines, at.line), docs: fromSource, from: "source" };
  const prose = text
    .replace(block[0], "")
    .replace(/^\s*---\s*$/gm, "")
    .trim();
  return { signature: block[1].trim(), docs: fromSource === "" ? prose : fromSource, from: "hover" };
}

/** The declaration as written, up to its body. */
function declarationLine(lines: readonly string[], line: number): string {
  return (lines[line] ?? "").replace(/\s*[{:]\s*$/, "").trim();
}

/** The comment block right above a declaration (JSDoc, //, #), or the docstring right below a Python def. */
export function sourceDocs(lines: readonly string[], line: number): string {
  const below = (lines[line + 1] ?? "").trim();
  const doc = /^(?:"""|''')(.*)$/.exec(below);
  if (doc !== null) {
    const quote = below.slice(0, 3);
    const body = [doc[1] ?? ""];
    for (let n = line + 2; !(body[body.length - 1] ?? "").includes(quote) && n < lines.length && n < line + 40; n++)
      body.push((lines[n] ?? "").trim());
    return body.join("\n").replace(quote, "").trim();
  }
  const above: string[] = [];
  for (let n = line - 1; n >= 0 && n >= line - 40; n--) {
    const text = (lines[n] ?? "").trim();
    if (!/^(?:\/\*\*?|\*|\/\/|#(?!include|define|if|endif|pragma))/.test(text) || text === "") break;
    above.unshift(text);
  }
  return above
    .map((l) => l.replace(/^\/\*\*?\s?|\*\/$|^\*\s?|^\/\/\s?|^#\s?/g, "").trim())
    .filter((l) => l !== "")
    .join("\n");
}
