// How a signature of signatureHelp is printed, headless or from VS Code: the active one starred, its
// active parameter marked, each parameter's documentation beside it.
import type { SignatureInformation } from "vscode-languageserver-protocol";
import { markupText } from "../../services/lsp-markup/markup.ts";

/** One signature, the active one starred and its active parameter marked. */
export function renderSignature(
  signature: SignatureInformation,
  opts: { activeParameter: number | null | undefined; active: boolean },
): string {
  const { activeParameter, active } = opts;
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
