// prepareRename and renameSymbol's preview through VS Code (vscode.prepareRename,
// vscode.executeDocumentRenameProvider): what its editor's F2 would rename, shown as the headless
// answers are. Writing a rename stays with the bridge's language server, which verifies the
// references first; VS Code's preview says so instead of offering a digest.
import type { ToolContext } from "../../../capabilities/context.ts";
import { splitLines, type PositionInput } from "../../../lsp/positions.ts";
import { vsCodeEditAnswer } from "./edit-answer.ts";
import { placeInVsCode } from "./places.ts";

export async function prepareRenameViaVsCode(input: PositionInput & { file: string }, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const answer = await ctx.extension.request("extension/prepareRename", { uri: at.uri, position: at.position }, { signal: ctx.signal });
  if (answer.range === undefined)
    return `${at.note}Cannot rename \`${at.name}\` at ${at.where}: ${answer.refused ?? "VS Code says it is not a renameable symbol"} (VS Code).`;
  const path = await ctx.fs.resolve(input.file);
  const doc = await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal });
  const { start, end } = answer.range;
  const line = splitLines(doc.text)[start.line] ?? "";
  const text = start.line === end.line ? line.slice(start.character, end.character) : line.slice(start.character);
  return `${at.note}\`${answer.placeholder ?? text}\` can be renamed: ${at.relative}:${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1} ("${text}") (VS Code).`;
}

export async function renamePreviewViaVsCode(input: PositionInput & { file: string; newName: string }, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const answer = await ctx.extension.request(
    "extension/rename",
    { uri: at.uri, position: at.position, newName: input.newName },
    { signal: ctx.signal },
  );
  const none = `${at.note}VS Code cannot rename \`${at.name}\` at ${at.where} (no rename provider answered); prepareRename says what can be renamed.`;
  if (answer.edit === null) return none;
  const text = await vsCodeEditAnswer(ctx, answer.edit, {
    what: "the rename",
    done: `Renamed \`${at.name}\` to \`${input.newName}\``,
    would: `Would rename \`${at.name}\` to \`${input.newName}\``,
    none: `Renaming \`${at.name}\` to \`${input.newName}\` changes no file (VS Code).`,
    dryRun: true,
    applyHint:
      "To write it, call renameSymbol without dryRun: the bridge's language server makes the rename after verifying every reference.",
  });
  return `${at.note}${text}`;
}
