// signatureHelp: the signatures of the call around a position, the active parameter marked.
import * as v from "valibot";
import type { SignatureHelp, SignatureInformation } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { markupText } from "./markup.ts";
import { positionFields } from "./position-input.ts";

export default defineTool({
  name: "signatureHelp",
  title: "Signature help",
  description:
    "Shows the parameters of the function being called at a position (inside its parentheses), the active one marked, via the language server.",
  searchHint: "signature help function parameters arguments overloads what arguments does it take",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
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
      .map((s, i) => render(s, i === active ? (s.activeParameter ?? help.activeParameter ?? undefined) : undefined, i === active))
      .join("\n\n")}`;
  },
});

function render(signature: SignatureInformation, activeParameter: number | null | undefined, active: boolean): string {
  const lines = [`${active ? "* " : "  "}${signature.label}`];
  (signature.parameters ?? []).forEach((p, i) => {
    const label = typeof p.label === "string" ? p.label : signature.label.slice(p.label[0], p.label[1]);
    const doc = markupText(p.documentation);
    lines.push(`    ${i === activeParameter ? "> " : "  "}${label}${doc ? ` — ${doc}` : ""}`);
  });
  const doc = markupText(signature.documentation);
  if (doc) lines.push(`    ${doc.split("\n").join("\n    ")}`);
  return lines.join("\n");
}
