// getHover: what the language server shows on hover (type, signature, documentation).
import * as v from "valibot";
import type { Hover } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { markupText } from "../../services/lsp-markup/markup.ts";
import { positionFields } from "./position-input.ts";
import { hoverViaVsCode } from "./vscode/hover.ts";

export default defineTool({
  name: "getHover",
  title: "Hover information",
  description:
    "Shows what an editor's hover shows for a symbol: its type, signature and documentation, from its file, line and name, via the language server.",
  searchHint: "documentation of the symbol under the cursor: hover, type info, docstring, what is this, quick info",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: hoverViaVsCode,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/hover" });
    const hover = await at.doc.request<Hover | null>("textDocument/hover", at.params);
    const text = markupText(hover?.contents);
    return text === ""
      ? `${at.note}No hover information for \`${at.name}\` at ${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}.`
      : `${at.note}${text}`;
  },
});
