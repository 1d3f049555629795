// A refactoring code action carried out: resolved when the server sends its edit only on request,
// its command run with the edits it asks for captured (typescript-language-server's
// _typescript.applyRefactoring), and the whole applied through src/lsp/apply-edit.ts (atomic,
// checked, or only shown); once written, its errors are counted by the language's own checker
// (checked-apply.ts), not by waiting on the refactoring server's slow first diagnostics. An extract names what it creates with a placeholder (newFunction,
// newLocal, NewType) and asks the editor to rename it (_typescript.rename, answered by the bridge):
// given `name`, the placeholder is replaced in the edit itself, so preview and write agree.
import type { CodeAction, TextDocumentEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { applyChecked } from "./checked-apply.ts";
import { inOrder } from "./code-action-edit.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { fallbackNote, type RefactorsAt } from "./refactor-actions.ts";

/** The names TypeScript gives what an extract creates, until the user renames it. */
const PLACEHOLDER = /\b(newFunction|newLocal|NewType|newMethod|newProperty)(_\d+)?\b/g;

export async function runRefactor(
  at: RefactorsAt,
  ctx: ToolContext,
  opts: { action: CodeAction; dryRun: boolean; onlyIfNoNewErrors: boolean; expectDigest?: string | undefined; name?: string | undefined },
): Promise<string> {
  const server = at.doc.server;
  const chosen = opts.action;
  if (chosen.disabled !== undefined)
    throw new ToolError("not_supported", `"${chosen.title}" is offered but disabled here: ${chosen.disabled.reason}`, {
      suggestion:
        "Select a complete expression or whole statements (startColumn/endColumn), or pick another refactoring from refactorAnalyze.",
    });
  let action = chosen;
  if (action.edit === undefined && action.command === undefined) action = await at.doc.request<CodeAction>("codeAction/resolve", action);
  const edits: WorkspaceEdit[] = action.edit === undefined ? [] : [action.edit];
  const renamesBefore = server.renameRequests.length;
  if (action.command !== undefined) for (const asked of await server.executeCommand(action.command, ctx.signal)) edits.push(asked.edit);
  if (edits.length === 0)
    throw new ToolError("not_supported", `${server.serverName} gave no edit for "${action.title}"`, {
      suggestion: "Try another selection or refactoring.",
    });
  const asksRename = server.renameRequests.length > renamesBefore;
  let edit = inOrder(edits);
  let renamed: string | undefined;
  if (opts.name !== undefined) {
    const placeholders = placeholdersIn(edit);
    if (placeholders.size === 1) {
      renamed = [...placeholders][0];
      edit = withName(edit, renamed as string, opts.name);
    } else if (placeholders.size > 1)
      throw new ToolError(
        "invalid_arguments",
        `the edit creates several names (${[...placeholders].join(", ")}); cannot tell which to call ${opts.name}`,
        {
          suggestion: "Leave name out and rename afterwards with renameSymbol.",
        },
      );
  }
  // typescript-language-server's first diagnostics can take 15 s on a loaded machine: a written
  // refactoring is counted by the compiler (tsgo) instead, when it can run.
  const outcome = await applyChecked(ctx, server, {
    edit,
    languageId: at.doc.languageId,
    preferChecker: true,
    dryRun: opts.dryRun,
    onlyIfNoNewErrors: opts.onlyIfNoNewErrors,
    signal: ctx.signal,
    expectDigest: opts.expectDigest,
  });
  const by = `${server.serverName}${fallbackNote(at)}`;
  const text = await renderOutcome(outcome, { done: `Applied "${action.title}"`, would: `Would apply "${action.title}"`, server: by });
  const naming =
    renamed !== undefined
      ? `\nNamed \`${opts.name}\` (the server's placeholder was \`${renamed}\`).`
      : asksRename || placeholdersIn(edit).size > 0
        ? `\nThe new code is named \`${[...placeholdersIn(edit)].join("`, `") || "by the server"}\`: pass name to choose it, or renameSymbol afterwards.`
        : "";
  return `${text}${naming}\nAnswered by ${by}.`;
}

function placeholdersIn(edit: WorkspaceEdit): Set<string> {
  const found = new Set<string>();
  for (const text of newTexts(edit)) for (const m of text.matchAll(PLACEHOLDER)) found.add(m[0]);
  return found;
}

function newTexts(edit: WorkspaceEdit): string[] {
  const out: string[] = [];
  for (const change of edit.documentChanges ?? [])
    if ("edits" in change) for (const e of change.edits) if ("newText" in e) out.push(e.newText);
  for (const changes of Object.values(edit.changes ?? {})) for (const e of changes) out.push(e.newText);
  return out;
}

function withName(edit: WorkspaceEdit, placeholder: string, name: string): WorkspaceEdit {
  const swap = (text: string) => text.replace(new RegExp(`\\b${placeholder}\\b`, "g"), name);
  return {
    ...(edit.documentChanges === undefined
      ? {}
      : {
          documentChanges: edit.documentChanges.map((c) =>
            "edits" in c
              ? ({ ...c, edits: c.edits.map((e) => ("newText" in e ? { ...e, newText: swap(e.newText) } : e)) } satisfies TextDocumentEdit)
              : c,
          ),
        }),
    ...(edit.changes === undefined
      ? {}
      : {
          changes: Object.fromEntries(
            Object.entries(edit.changes).map(([uri, es]) => [uri, es.map((e) => ({ ...e, newText: swap(e.newText) }))]),
          ),
        }),
  };
}
