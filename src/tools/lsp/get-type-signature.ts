// getTypeSignature: a symbol's type or signature alone (the hover's code), for a quick check.
import * as v from "valibot";
import type { Hover } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { markupText, signatureOf } from "../../services/lsp-markup/markup.ts";
import { positionFields } from "./position-input.ts";
import { signatureViaVsCode } from "./vscode/hover.ts";

export default defineTool({
  name: "getTypeSignature",
  title: "Type signature",
  description: "Returns just the type or signature of a symbol (no documentation), from its file, line and name, via the language server.",
  searchHint: "type signature what type does it return parameter types inferred type",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  viaExtension: signatureViaVsCode,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/hover" });
    const hover = await at.doc.request<Hover | null>("textDocument/hover", at.params);
    const signature = signatureOf(markupText(hover?.contents));
    return signature === ""
      ? `${at.note}No type information for \`${at.name}\` at ${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}.`
      : `${at.note}${signature}`;
  },
});
