// getInlayHints: the inline annotations an editor shows inside code (inferred types, parameter
// names, return types), each at its 1-based position with its kind.
import * as v from "valibot";
import type { InlayHint, InlayHintLabelPart } from "vscode-languageserver-protocol";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField, lineRangeFields, linesRange } from "./file-fields.ts";
import { maxResultsField } from "./position-input.ts";

const METHOD = "textDocument/inlayHint";
const KIND: Record<number, string> = { 1: "type", 2: "parameter" };

export default defineTool({
  name: "getInlayHints",
  title: "Inlay hints",
  description:
    "Lists the inline hints a language server shows in a file or line range (inferred types, parameter names, return types), each at its line and column.",
  searchHint: "inlay hints inferred types parameter names inline type annotations implicit return type",
  input: v.strictObject({ ...fileField, ...lineRangeFields, ...maxResultsField(200, 2000) }),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: METHOD });
    const range = linesRange(doc.lines, input);
    const hints = ((await doc.request<InlayHint[] | null>(METHOD, { textDocument: { uri: doc.uri }, range })) ?? [])
      .slice()
      .sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
    const lines = `lines ${range.start.line + 1}-${range.end.line + 1}`;
    if (hints.length === 0)
      return `${doc.relative} ${lines}: no inlay hints (${doc.server.serverName}; some servers show hints only when enabled in their settings).`;
    const shown = hints.slice(0, input.maxResults).map((h) => {
      const kind = h.kind === undefined ? "" : ` ${KIND[h.kind] ?? h.kind}`;
      return `${h.position.line + 1}:${h.position.character + 1}${kind} ${labelOf(h.label)}`;
    });
    const more = hints.length > shown.length ? `\n… ${hints.length - shown.length} more; raise maxResults or narrow the lines.` : "";
    return `${hints.length} inlay hint${hints.length === 1 ? "" : "s"} in ${doc.relative} ${lines} (${doc.server.serverName}):\n${shown.join("\n")}${more}`;
  },
});

function labelOf(label: string | InlayHintLabelPart[]): string {
  return (typeof label === "string" ? label : label.map((p) => p.value).join("")).trim();
}
