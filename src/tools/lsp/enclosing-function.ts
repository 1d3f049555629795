// The innermost function, method or constructor whose range holds a line, from the server's
// document symbols: what explainDiagnostic and getChangeImpact ask the callers of.
import type { DocumentSymbol, SymbolInformation } from "vscode-languageserver-protocol";
import type { LspDocument } from "../../lsp/lsp-service.ts";

/** SymbolKind Method, Constructor, Function. */
const CALLABLE = new Set([6, 9, 12]);

export interface Enclosing {
  name: string;
  /** 0-based position of its name. */
  line: number;
  character: number;
}

export async function enclosingFunction(doc: LspDocument, line: number): Promise<Enclosing | undefined> {
  if (!doc.server.supports("textDocument/documentSymbol")) return undefined;
  const symbols =
    (await doc
      .request<DocumentSymbol[] | SymbolInformation[] | null>("textDocument/documentSymbol", { textDocument: { uri: doc.uri } })
      .catch(() => null)) ?? [];
  let found: Enclosing | undefined;
  const walk = (list: readonly DocumentSymbol[]) => {
    for (const s of list) {
      if (s.range.start.line > line || s.range.end.line < line) continue;
      if (CALLABLE.has(s.kind)) found = { name: s.name, line: s.selectionRange.start.line, character: s.selectionRange.start.character };
      walk(s.children ?? []);
    }
  };
  if (symbols.length > 0 && "selectionRange" in (symbols[0] as object)) walk(symbols as DocumentSymbol[]);
  else
    for (const s of symbols as SymbolInformation[]) {
      const r = s.location.range;
      if (CALLABLE.has(s.kind) && r.start.line <= line && r.end.line >= line)
        found = { name: s.name, line: r.start.line, character: r.start.character };
    }
  return found;
}
