// Whether a declared symbol is used, and where: its references (the declaration not counted), split
// between its own file and the others. An empty first answer is never taken at its word: it is
// asked again through verifiedReferences, which opens every file that mentions the name as text,
// so "unused" means no file the server could check uses it, and the answer says when it could not
// check them all.
import type { Location } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { verifiedReferences } from "../language/verified-references.ts";

export interface SymbolUsage {
  /** References in other files, by root-relative file. */
  elsewhere: Map<string, number>;
  /** References in the declaring file, the declaration not counted. */
  inOwnFile: number;
  /** false when the check could not cover every file that mentions the name (why). */
  complete: boolean;
  why?: string;
}

export async function symbolUsage(
  ctx: ToolContext,
  doc: LspDocument,
  symbol: { name: string; at: { line: number; character: number } },
): Promise<SymbolUsage> {
  const params = { textDocument: { uri: doc.uri }, position: symbol.at };
  const quick = await doc
    .request<Location[] | null>("textDocument/references", { ...params, context: { includeDeclaration: false } })
    .catch(() => null);
  const first = await tally(ctx, doc, quick ?? [], symbol.at);
  if (first.elsewhere.size > 0) return { ...first, complete: true };
  const verified = await verifiedReferences(ctx, doc, { name: symbol.name, params, includeDeclaration: false });
  const usage = await tally(ctx, doc, verified.locations, symbol.at);
  return { ...usage, complete: verified.coverage.complete, ...(verified.coverage.why === undefined ? {} : { why: verified.coverage.why }) };
}

async function tally(
  ctx: ToolContext,
  doc: LspDocument,
  locations: readonly Location[],
  declaration: { line: number; character: number },
): Promise<{ elsewhere: Map<string, number>; inOwnFile: number }> {
  const elsewhere = new Map<string, number>();
  let inOwnFile = 0;
  for (const location of locations) {
    const path = location.uri === doc.uri ? doc.path : await ctx.lsp.pathOf(location.uri);
    if (path === undefined) continue;
    const file = ctx.fs.relative(path);
    if (file === doc.relative) {
      // Some servers count the declaration even when told not to.
      if (location.range.start.line !== declaration.line || location.range.start.character !== declaration.character) inOwnFile += 1;
    } else elsewhere.set(file, (elsewhere.get(file) ?? 0) + 1);
  }
  return { elsewhere, inOwnFile };
}
