// signatureHelp: the signatures of the call around a position, the active parameter marked.
import * as v from "valibot";
import type { SignatureHelp } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { renderSignature } from "./signature-lines.ts";
import { positionFields } from "./position-input.ts";
import { signatureHelpViaVsCode } from "./vscode/signature-help.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

export default defineTool({
  name: "signatureHelp",
  title: "Signature help",
  description:
    "Shows the parameters of the function being called at a position (inside its parentheses), the active one marked, via the language server.",
  searchHint: "signature help function parameters arguments overloads what arguments does it take",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: signatureHelpViaVsCode,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/signatureHelp" });
    const help = await at.doc.request<SignatureHelp | null>("textDocument/signatureHelp", {
      ...at.params,
      context: { triggerKind: 1, isRetrigger: false },
    });
    if (help === null || help.signatures.length === 0)
      return `${at.note}No call around ${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}: put the position inside a call's parentheses.`;
    const active = help.activeSignature ?? 0;
    return `${at.note}${help.signatures
      .map((s, i) =>
        renderSignature(s, {
          activeParameter: i === active ? (s.activeParameter ?? help.activeParameter ?? undefined) : undefined,
          active: i === active,
        }),
      )
      .join("\n\n")}`;
  },
});
