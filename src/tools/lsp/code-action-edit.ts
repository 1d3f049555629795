// previewCodeAction and applyCodeAction: a code action chosen by its title (as getCodeActions lists
// it), resolved when the server sends its edit only on request, its command run with the edits the
// server asks for captured (src/lsp/language-server.ts), and all of it applied as one edit through
// src/lsp/apply-edit.ts: atomic, checked, with the errors it introduces and fixes, once written
// counted again by the language's own checker too (checked-apply.ts).
import * as v from "valibot";
import type { CodeAction, Command, TextDocumentEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { applyChecked } from "./checked-apply.ts";
import { codeActionsAt, isCommand, pickAction, rangeFields, type RangeInput } from "./code-actions-at.ts";
import { renderOutcome } from "./edit-outcome.ts";

export const codeActionInput = {
  ...rangeFields,
  title: v.pipe(v.string(), v.minLength(1), v.description("Title (or part) from getCodeActions.")),
};

export async function runCodeAction(
  input: RangeInput & { title: string },
  ctx: ToolContext,
  opts: { dryRun: boolean; onlyIfNoNewErrors: boolean; expectDigest?: string | undefined },
): Promise<string> {
  const at = await codeActionsAt(input, ctx);
  const server = at.doc.server;
  let action: CodeAction | Command = pickAction(at.actions, { title: input.title, where: `${at.doc.relative} lines ${at.lines}` });
  if (!isCommand(action) && action.disabled !== undefined) {
    throw new ToolError("not_supported", `"${action.title}" is offered but disabled: ${action.disabled.reason}`, {
      suggestion: "Pick another action from getCodeActions.",
    });
  }
  if (!isCommand(action) && action.edit === undefined && action.command === undefined && resolves(server.capabilities.codeActionProvider)) {
    action = await at.doc.request<CodeAction>("codeAction/resolve", action);
  }
  const edits: WorkspaceEdit[] = [];
  if (!isCommand(action) && action.edit !== undefined) edits.push(action.edit);
  const command = isCommand(action) ? action : action.command;
  // The edits a command makes are asked for through workspace/applyEdit while it runs.
  if (command !== undefined) for (const asked of await server.executeCommand(command, ctx.signal)) edits.push(asked.edit);
  if (edits.length === 0) return `"${action.title}" changes no file (${server.serverName} gave no edit for it).`;
  const outcome = await applyChecked(ctx, server, { ...opts, edit: inOrder(edits), languageId: at.doc.languageId, signal: ctx.signal });
  return renderOutcome(outcome, { done: `Applied "${action.title}"`, would: `Would apply "${action.title}"`, server: server.serverName });
}

function resolves(provider: unknown): boolean {
  return typeof provider === "object" && provider !== null && (provider as { resolveProvider?: boolean }).resolveProvider === true;
}

/** Several edits as one, applied in order (each TextDocumentEdit on the content the previous left). */
export function inOrder(edits: readonly WorkspaceEdit[]): WorkspaceEdit {
  if (edits.length === 1 && edits[0] !== undefined) return edits[0];
  const documentChanges: NonNullable<WorkspaceEdit["documentChanges"]> = [];
  for (const edit of edits) {
    if (edit.documentChanges !== undefined) documentChanges.push(...edit.documentChanges);
    else
      for (const [uri, changes] of Object.entries(edit.changes ?? {}))
        documentChanges.push({ textDocument: { uri, version: null }, edits: changes } satisfies TextDocumentEdit);
  }
  return { documentChanges };
}
