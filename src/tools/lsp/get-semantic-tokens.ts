// getSemanticTokens: what the language server says each identifier is (function, parameter,
// class, property...) with its modifiers (declaration, readonly, async), decoded from the packed
// integers of the protocol through the server's own legend into names.
import * as v from "valibot";
import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField, lineRangeFields, linesRange } from "./file-fields.ts";
import { maxResultsField } from "./position-input.ts";
import { decodeTokens } from "./semantic-token-decoding.ts";

export default defineTool({
  name: "getSemanticTokens",
  title: "Semantic tokens",
  description:
    "Classifies each identifier of a file or line range as the language server sees it (function, parameter, class, property...) with modifiers (declaration, readonly, async).",
  searchHint: "semantic tokens classify identifiers token types function variable parameter class semantic highlighting",
  input: v.strictObject({ ...fileField, ...lineRangeFields, ...maxResultsField(300, 5000) }),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const ranged = input.startLine !== undefined || input.endLine !== undefined;
    // A range where the server takes one; otherwise the whole file, filtered to the lines asked for.
    const doc = await openDocument(input.file, ctx, { method: "textDocument/semanticTokens/full" });
    const legend = legendOf(doc.server.capabilities.semanticTokensProvider);
    if (legend === undefined)
      throw new ToolError("not_supported", `${doc.server.serverName} gave no semantic token legend`, {
        suggestion: "Use getHover or getDocumentSymbols for what identifiers are.",
      });
    const range = linesRange(doc.lines, input);
    const byRange = ranged && doc.server.supports("textDocument/semanticTokens/range");
    const answer = byRange
      ? await doc.request<SemanticTokens | null>("textDocument/semanticTokens/range", { textDocument: { uri: doc.uri }, range })
      : await doc.request<SemanticTokens | null>("textDocument/semanticTokens/full", { textDocument: { uri: doc.uri } });
    const tokens = decodeTokens(answer?.data ?? [], legend).filter((t) => t.line >= range.start.line && t.line <= range.end.line);
    const lines = `lines ${range.start.line + 1}-${range.end.line + 1}`;
    if (tokens.length === 0) return `${doc.relative} ${lines}: no semantic tokens (${doc.server.serverName}).`;
    const shown = tokens.slice(0, input.maxResults).map((t) => {
      const text = (doc.lines[t.line] ?? "").slice(t.character, t.character + t.length);
      const mods = t.modifiers.length > 0 ? ` [${t.modifiers.join(",")}]` : "";
      return `${t.line + 1}:${t.character + 1} ${text} ${t.type}${mods}`;
    });
    const more = tokens.length > shown.length ? `\n… ${tokens.length - shown.length} more; raise maxResults or narrow the lines.` : "";
    return `${tokens.length} semantic token${tokens.length === 1 ? "" : "s"} in ${doc.relative} ${lines} (${doc.server.serverName}), line:col text type [modifiers]:\n${shown.join("\n")}${more}`;
  },
});

function legendOf(provider: unknown): SemanticTokensLegend | undefined {
  if (typeof provider !== "object" || provider === null || !("legend" in provider)) return undefined;
  return (provider as { legend: SemanticTokensLegend }).legend;
}
