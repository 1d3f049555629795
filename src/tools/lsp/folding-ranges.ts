// foldingRanges: the regions an editor can fold in a file (blocks, comments, import groups,
// #region markers), as 1-based line ranges with what starts each.
import * as v from "valibot";
import type { FoldingRange } from "vscode-languageserver-protocol";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField } from "./file-fields.ts";
import { maxResultsField } from "./position-input.ts";

const METHOD = "textDocument/foldingRange";

export default defineTool({
  name: "foldingRanges",
  title: "Folding ranges",
  description:
    "Lists the regions an editor can fold in a file (functions, blocks, comments, imports, #region) as 1-based line ranges, via the language server.",
  searchHint: "folding ranges collapsible regions blocks fold code sections line ranges of functions",
  input: v.strictObject({ ...fileField, ...maxResultsField(200, 2000) }),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: METHOD });
    const ranges = ((await doc.request<FoldingRange[] | null>(METHOD, { textDocument: { uri: doc.uri } })) ?? [])
      .slice()
      .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
    if (ranges.length === 0) return `${doc.relative}: no folding ranges (${doc.server.serverName}).`;
    const shown = ranges.slice(0, input.maxResults);
    const lines = shown.map((r) => {
      const kind = r.kind === undefined ? "" : ` ${r.kind}`;
      const first = (doc.lines[r.startLine] ?? "").trim();
      return `${r.startLine + 1}-${r.endLine + 1}${kind}  ${first.length > 80 ? `${first.slice(0, 80)}…` : first}`;
    });
    const more = ranges.length > shown.length ? `\n… ${ranges.length - shown.length} more; raise maxResults to see them.` : "";
    return `${ranges.length} folding range${ranges.length === 1 ? "" : "s"} in ${doc.relative} (${doc.server.serverName}), lines start-end:\n${lines.join("\n")}${more}`;
  },
});
