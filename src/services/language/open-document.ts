// A file opened in the language server that answers `method`, with a server that is still starting
// reported through ctx.progress, so a slow first call is not silent.
import type { ToolContext } from "../../capabilities/context.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";

export function openDocument(file: string, ctx: ToolContext, opts: { method: string }): Promise<LspDocument> {
  return ctx.lsp.document(file, { method: opts.method, signal: ctx.signal, onProgress: (message) => ctx.progress(0, { message }) });
}
