// Hover and signature contents (MarkupContent, MarkedString, or a list of them) as plain text,
// and the first code block of a hover: the signature, which getTypeSignature returns alone.
import type { Hover, MarkedString, MarkupContent } from "vscode-languageserver-protocol";

type Contents = Hover["contents"];

export function markupText(contents: Contents | string | undefined): string {
  if (contents === undefined) return "";
  if (typeof contents === "string") return contents.trim();
  if (Array.isArray(contents))
    return contents
      .map((c: MarkedString) => markupText(c))
      .filter((t) => t !== "")
      .join("\n\n");
  if ("kind" in contents) return (contents as MarkupContent).value.trim();
  // A MarkedString with a language: a code block.
  return `\`\`\`${contents.language}\n${contents.value}\n\`\`\``;
}

/** The first fenced code block's body, else the first line: what a hover says the symbol is. */
export function signatureOf(text: string): string {
  const fenced = /```[^\n]*\n([\s\S]*?)\n?```/.exec(text);
  if (fenced?.[1] !== undefined) return fenced[1].trim();
  return (text.split("\n")[0] ?? "").trim();
}
