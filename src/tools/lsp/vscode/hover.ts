// getHover and getTypeSignature through VS Code (vscode.executeHoverProvider): what the editor's
// hover shows, from every extension that contributes one, as the headless tools print it.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import { signatureOf } from "../../../services/lsp-markup/markup.ts";
import { askFeature, placeInVsCode } from "./places.ts";

export async function hoverViaVsCode(input: PositionInput & { file: string }, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const text = ((await askFeature(at, ctx, { feature: "hover" })).hover ?? []).join("\n\n");
  return text === "" ? `${at.note}No hover information for \`${at.name}\` at ${at.where} (VS Code).` : `${at.note}${text}`;
}

export async function signatureViaVsCode(input: PositionInput & { file: string }, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const signature = signatureOf(((await askFeature(at, ctx, { feature: "hover" })).hover ?? []).join("\n\n"));
  return signature === "" ? `${at.note}No type information for \`${at.name}\` at ${at.where} (VS Code).` : `${at.note}${signature}`;
}
