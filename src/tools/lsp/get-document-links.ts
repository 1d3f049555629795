// getDocumentLinks: the links a file holds as an editor underlines them (import paths, #include
// files, URLs in comments), each with where it points: a workspace file by its relative path
// (through the jail), anything else by its URL.
import * as v from "valibot";
import type { DocumentLink } from "vscode-languageserver-protocol";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField, span, textOf } from "./file-fields.ts";
import { resolveEach, resolvesItems } from "./resolved.ts";

const METHOD = "textDocument/documentLink";

export default defineTool({
  name: "getDocumentLinks",
  title: "Document links",
  description: "Lists the links in a file (import and include paths, URLs) with the file or URL each points to, via the language server.",
  searchHint: "document links import paths include files urls in file clickable links targets",
  input: v.strictObject(fileField),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: METHOD });
    const links = (await doc.request<DocumentLink[] | null>(METHOD, { textDocument: { uri: doc.uri } })) ?? [];
    if (links.length === 0) return `${doc.relative}: no document links (${doc.server.serverName}).`;
    const resolved = resolvesItems(doc.server.capabilities.documentLinkProvider)
      ? await resolveEach(doc, links, { method: "documentLink/resolve", needed: (l) => l.target === undefined })
      : links;
    const lines = await Promise.all(
      [...resolved]
        .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
        .map(async (link) => `${span(link.range)} ${textOf(doc.lines, link.range)} -> ${await targetName(ctx, link.target)}`),
    );
    return `${links.length} link${links.length === 1 ? "" : "s"} in ${doc.relative} (${doc.server.serverName}):\n${lines.join("\n")}`;
  },
});

async function targetName(ctx: Parameters<typeof openDocument>[1], target: string | undefined): Promise<string> {
  if (target === undefined) return "(target not given)";
  if (!target.startsWith("file:")) return target;
  const [uri, fragment] = target.split("#", 2);
  const path = await ctx.lsp.pathOf(uri ?? target);
  const where = path === undefined ? "(outside the workspace)" : ctx.fs.relative(path);
  return fragment === undefined ? where : `${where}#${fragment}`;
}
