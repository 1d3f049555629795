// The top-level symbols a source file declares (from its language server's documentSymbol), each
// with whether the language makes it visible to other files: `export` in JavaScript and TypeScript,
// a capital first letter in Go, no leading underscore (and a place in `__all__` when there is one)
// in Python, not `static` in C. Imported names, which some servers list, are left out.
import type { DocumentSymbol, Range, SymbolInformation } from "vscode-languageserver-protocol";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { importStatements } from "../lsp-imports/import-statements.ts";

export interface TopSymbol {
  name: string;
  /** LSP SymbolKind. */
  kind: number;
  /** The whole declaration. */
  range: Range;
  /** Where its name is: the position references and hover are asked at. */
  at: { line: number; character: number };
  exported: boolean;
  /** Members (a class's methods and fields), when the server answers with a hierarchy. */
  members: { name: string; kind: number; at: { line: number; character: number } }[];
}

const JS_TS = /^(?:typescript|javascript)(?:react)?$/;

export async function topLevelSymbols(doc: LspDocument): Promise<TopSymbol[]> {
  const answer =
    (await doc.request<DocumentSymbol[] | SymbolInformation[] | null>("textDocument/documentSymbol", { textDocument: { uri: doc.uri } })) ??
    [];
  const importLines = new Set(importStatements(doc.lines, doc.languageId).map((s) => s.line));
  const visible = exportRule(doc);
  const out: TopSymbol[] = [];
  for (const s of answer) {
    const top =
      "selectionRange" in s
        ? { range: s.range, at: s.selectionRange.start }
        : s.containerName
          ? undefined
          : { range: s.location.range, at: s.location.range.start };
    if (top === undefined || importLines.has(top.at.line) || importLines.has(top.range.start.line)) continue;
    // Some servers list anonymous declarations as "<function>" or "<unknown>".
    if (s.name.startsWith("<")) continue;
    out.push({
      name: s.name,
      kind: s.kind,
      range: top.range,
      at: nameAt(doc, s.name, top.at),
      exported: visible(s.name, top.range),
      members: membersOf(doc, s),
    });
  }
  return out;
}

function membersOf(doc: LspDocument, s: DocumentSymbol | SymbolInformation): TopSymbol["members"] {
  if (!("children" in s) || s.children === undefined) return [];
  // A function's children are its locals, not its API.
  if (s.kind === 12 || s.kind === 13 || s.kind === 14) return [];
  return s.children
    .filter(
      (c) => !c.name.startsWith("#") && !c.name.startsWith("_") && !/^\s*(?:private|protected)\b/.test(doc.lines[c.range.start.line] ?? ""),
    )
    .map((c) => ({ name: c.name, kind: c.kind, at: nameAt(doc, c.name, c.selectionRange.start) }));
}

/** The name's own position on its line (a server may point at the declaration's start, `export function ...`). */
function nameAt(doc: LspDocument, name: string, at: { line: number; character: number }): { line: number; character: number } {
  const bare = name.slice(name.lastIndexOf(".") + 1);
  const text = doc.lines[at.line] ?? "";
  if (text.slice(at.character).startsWith(bare)) return at;
  const found = new RegExp(`\\b${bare.replace(/[$]/g, "\\$")}\\b`).exec(text.slice(at.character));
  return found === null ? at : { line: at.line, character: at.character + found.index };
}

function exportRule(doc: LspDocument): (name: string, range: Range) => boolean {
  const text = doc.text;
  if (JS_TS.test(doc.languageId)) {
    const listed = new Set<string>();
    for (const m of text.matchAll(/\bexport\s*(?:type\s*)?\{([^}]*)\}/g))
      for (const part of (m[1] ?? "").split(",")) {
        const local = part
          .trim()
          .split(/\s+as\s+/)[0]
          ?.replace(/^type\s+/, "");
        if (local) listed.add(local);
      }
    for (const m of text.matchAll(/\bexport\s+default\s+([\w$]+)\s*;?\s*$/gm)) if (m[1]) listed.add(m[1]);
    return (name, range) => listed.has(name) || /^\s*export\b/.test(doc.lines[range.start.line] ?? "");
  }
  if (doc.languageId === "go") return (name) => /^[A-Z]/.test(name.slice(name.lastIndexOf(".") + 1));
  if (doc.languageId === "python") {
    const all = /^__all__\s*=\s*[[(]([^\])]*)[\])]/m.exec(text);
    const names = all === null ? undefined : new Set([...(all[1] ?? "").matchAll(/["'](\w+)["']/g)].map((m) => m[1]));
    return (name) => (names === undefined ? !name.startsWith("_") : names.has(name));
  }
  if (/\.(?:h|hh|hpp|hxx)$/.test(doc.relative)) return () => true;
  if (["c", "cpp", "objective-c"].includes(doc.languageId)) return (_name, range) => !/\bstatic\b/.test(doc.lines[range.start.line] ?? "");
  return () => true;
}
