// signatureHelp through VS Code (vscode.executeSignatureHelpProvider): the parameter hints its
// editor shows, printed as the headless answer is.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import { renderSignature } from "../signature-lines.ts";
import { placeInVsCode } from "./places.ts";

export async function signatureHelpViaVsCode(input: PositionInput & { file: string }, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const help = await ctx.extension.request("extension/signatureHelp", { uri: at.uri, position: at.position }, { signal: ctx.signal });
  if (help.signatures.length === 0) return `${at.note}No call around ${at.where} (VS Code): put the position inside a call's parentheses.`;
  const active = help.activeSignature;
  const shown = help.signatures.map((s, i) =>
    renderSignature(s, { activeParameter: i === active ? (s.activeParameter ?? help.activeParameter) : undefined, active: i === active }),
  );
  return `${at.note}${shown.join("\n\n")}\n(VS Code)`;
}
