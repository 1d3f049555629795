// organizeImports: the language server's "organize imports" source action (sort, merge, drop unused)
// on a whole file, applied like any edit: atomic, with a dry run and the errors it changes, checked
// by the language's own checker once written (checked-apply.ts).
import * as v from "valibot";
import type { CodeAction, Command } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { applyChecked } from "./checked-apply.ts";
import { inOrder } from "./code-action-edit.ts";
import { isCommand } from "./code-actions-at.ts";
import { editFields } from "./edit-fields.ts";
import { renderOutcome } from "./edit-outcome.ts";

const KIND = "source.organizeImports";

export default defineTool({
  name: "organizeImports",
  title: "Organize imports",
  description:
    "Sorts and merges a file's imports and removes unused ones through its language server, with the diff and the errors it introduces or fixes; dryRun only shows it.",
  searchHint: "organize imports sort imports remove unused imports clean up imports",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative file.")),
    ...editFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  timeoutMs: 120_000,
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: "textDocument/codeAction" });
    const last = doc.lines.length - 1;
    const range = { start: { line: 0, character: 0 }, end: { line: last, character: (doc.lines[last] ?? "").length } };
    const offered =
      (await doc.request<(CodeAction | Command)[] | null>("textDocument/codeAction", {
        textDocument: { uri: doc.uri },
        range,
        context: { diagnostics: [], only: [KIND], triggerKind: 1 },
      })) ?? [];
    let action = offered.find((a): a is CodeAction => !isCommand(a) && (a.kind === KIND || a.kind?.startsWith(`${KIND}.`) === true));
    if (action !== undefined && action.edit === undefined && action.command === undefined)
      action = await doc.request<CodeAction>("codeAction/resolve", action);
    if (action === undefined) return `${doc.server.serverName} offers no "organize imports" for ${doc.relative}.`;
    const edits = action.edit === undefined ? [] : [action.edit];
    if (action.command !== undefined)
      for (const asked of await doc.server.executeCommand(action.command, ctx.signal)) edits.push(asked.edit);
    if (edits.length === 0) return `The imports of ${doc.relative} are already organized (${doc.server.serverName}).`;
    const outcome = await applyChecked(ctx, doc.server, {
      edit: inOrder(edits),
      languageId: doc.languageId,
      dryRun: input.dryRun,
      onlyIfNoNewErrors: input.onlyIfNoNewErrors,
      expectDigest: input.preview,
      signal: ctx.signal,
      // Sorting, merging and dropping unused imports leaves what the file exports as it was, so no
      // file that imports it can gain an error: the search for those files (a text search of the
      // workspace per call) and their diagnostics before and after are not needed. Once written,
      // the language's checker still runs over the project (checked-apply.ts).
      alsoCheck: [],
    });
    if (outcome.files.length === 0) return `The imports of ${doc.relative} are already organized (${doc.server.serverName}).`;
    return renderOutcome(outcome, {
      done: `Organized the imports of ${doc.relative}`,
      would: `Would organize the imports of ${doc.relative}`,
      server: doc.server.serverName,
    });
  },
});
