// prepareRename: whether the symbol at a position can be renamed, and exactly which text would
// change, before renameSymbol does it.
import * as v from "valibot";
import type { PrepareRenameResult, Range } from "vscode-languageserver-protocol";
import { ServerRefusal } from "../../lsp/server-refusal.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { positionFields } from "./position-input.ts";
import { prepareRenameViaVsCode } from "./vscode/rename.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

export default defineTool({
  name: "prepareRename",
  title: "Check a rename",
  description:
    "Checks whether the symbol at a position can be renamed (rename variable, function, class) and which range would change, without changing anything.",
  searchHint: "prepare rename can I rename variable function symbol check rename refactor",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: prepareRenameViaVsCode,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/rename" });
    const where = `${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}`;
    if (!at.doc.server.supports("textDocument/prepareRename")) {
      return `${at.note}${at.doc.server.serverName} renames without a prior check; \`${at.name}\` at ${where} would be renamed by renameSymbol if it is a symbol.`;
    }
    let answer: PrepareRenameResult | null;
    try {
      answer = await at.doc.request<PrepareRenameResult | null>("textDocument/prepareRename", at.params);
    } catch (err) {
      // Servers refuse with an error whose message says why ("You cannot rename this element").
      if (err instanceof ServerRefusal) return `${at.note}Cannot rename \`${at.name}\` at ${where}: ${err.reason}`;
      throw err;
    }
    if (answer === null) return `${at.note}Cannot rename \`${at.name}\` at ${where}: the server says it is not a renameable symbol.`;
    if ("defaultBehavior" in answer)
      return `${at.note}\`${at.name}\` at ${where} can be renamed (the server takes the word at the position).`;
    const range: Range = "range" in answer ? answer.range : answer;
    const text = textOf(at.doc.lines, range);
    const placeholder = "placeholder" in answer ? answer.placeholder : text;
    return `${at.note}\`${placeholder}\` can be renamed: ${at.doc.relative}:${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1} ("${text}").`;
  },
});

function textOf(lines: readonly string[], range: Range): string {
  if (range.start.line !== range.end.line) return (lines[range.start.line] ?? "").slice(range.start.character);
  return (lines[range.start.line] ?? "").slice(range.start.character, range.end.character);
}
