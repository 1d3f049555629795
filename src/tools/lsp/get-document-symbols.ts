// getDocumentSymbols: a file's symbols as an indented outline, each with its
// kind and 1-based line range, as an editor's outline view shows them. Imported names are left
// out (counted) unless asked for: they are what the file uses, not what it holds. So are the names
// inside a function's body (its locals, callbacks, object literal keys): an outline is what the
// file offers, and a function's insides are read with readFile.
import * as v from "valibot";
import type { DocumentSymbol, SymbolInformation } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { importLines } from "./import-lines.ts";
import { verbosityField } from "./position-input.ts";
import { symbolKindName } from "./symbol-kinds.ts";
import { documentSymbolsViaVsCode } from "./vscode/document-symbols.ts";

export default defineTool({
  name: "getDocumentSymbols",
  title: "File outline",
  description:
    "Lists a file's classes, functions, methods and variables as an indented outline with kinds and line ranges, via the language server.",
  searchHint: "document symbols outline structure of file list functions classes methods in file",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
    maxDepth: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Deepest nesting level shown (default 4).")),
    ),
    includeImports: v.optional(v.pipe(v.boolean(), v.description("List the names the file imports too (default false).")), false),
    includeLocals: v.optional(v.pipe(v.boolean(), v.description("List the names inside function bodies too (default false).")), false),
    ...verbosityField,
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  largeResult: true,
  viaExtension: documentSymbolsViaVsCode,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: "textDocument/documentSymbol" });
    const symbols =
      (await doc.request<DocumentSymbol[] | SymbolInformation[] | null>("textDocument/documentSymbol", {
        textDocument: { uri: doc.uri },
      })) ?? [];
    if (symbols.length === 0) return `${doc.relative} has no symbols (${doc.server.serverName}).`;
    const imports = input.includeImports ? new Set<number>() : importLines(doc.lines);
    const imported = (line: number) => imports.has(line);
    const kept = isHierarchical(symbols)
      ? symbols.filter((s) => !imported(s.selectionRange.start.line))
      : symbols.filter((s) => s.containerName || !imported(s.location.range.start.line));
    const left = symbols.length - kept.length;
    let note = left === 0 ? "" : `\n(${left} imported name${left === 1 ? "" : "s"} left out; includeImports: true lists them)`;
    if (kept.length === 0) return `${doc.relative} has no symbols but imports (${doc.server.serverName}).${note}`;
    const maxDepth = input.maxDepth ?? (input.verbosity === "minimal" ? 2 : 4);
    const walk: Walk = { maxDepth, verbosity: input.verbosity, locals: input.includeLocals, localsLeft: 0 };
    const lines = isHierarchical(kept)
      ? outline(kept, 0, walk)
      : kept.map(
          (s) => `${s.containerName ? `${s.containerName} > ` : ""}${s.name} ${symbolKindName(s.kind)} :${s.location.range.start.line + 1}`,
        );
    if (walk.localsLeft > 0)
      note += `\n(${walk.localsLeft} name${walk.localsLeft === 1 ? "" : "s"} inside function bodies left out; includeLocals: true lists them)`;
    return `${doc.relative} (${doc.lines.length} lines):\n${lines.join("\n")}${note}`;
  },
});

function isHierarchical(symbols: DocumentSymbol[] | SymbolInformation[]): symbols is DocumentSymbol[] {
  return symbols.length > 0 && "range" in (symbols[0] as DocumentSymbol);
}

/** Symbols whose children are the insides of a body, not members. */
const BODIES: ReadonlySet<string> = new Set(["function", "method", "constructor"]);

interface Walk {
  maxDepth: number;
  verbosity: string;
  locals: boolean;
  /** Counts the names inside bodies that were left out. */
  localsLeft: number;
}

function outline(symbols: readonly DocumentSymbol[], depth: number, walk: Walk): string[] {
  const out: string[] = [];
  for (const s of [...symbols].sort((a, b) => a.range.start.line - b.range.start.line)) {
    const start = s.range.start.line + 1;
    const end = s.range.end.line + 1;
    const detail = walk.verbosity === "verbose" && s.detail ? `  ${s.detail}` : "";
    out.push(`${"  ".repeat(depth)}${s.name} ${symbolKindName(s.kind)} ${start === end ? `:${start}` : `:${start}-${end}`}${detail}`);
    const children = s.children ?? [];
    if (children.length === 0) continue;
    if (!walk.locals && BODIES.has(symbolKindName(s.kind))) walk.localsLeft += countAll(children);
    else if (depth + 1 < walk.maxDepth) out.push(...outline(children, depth + 1, walk));
    else out.push(`${"  ".repeat(depth + 1)}… ${children.length} more inside; raise maxDepth`);
  }
  return out;
}

function countAll(symbols: readonly DocumentSymbol[]): number {
  return symbols.reduce((n, s) => n + 1 + countAll(s.children ?? []), 0);
}
