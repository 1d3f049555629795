// renameSymbol: renames a symbol everywhere the language server knows it is used, in every file at
// once or in none (src/lsp/apply-edit.ts), with the errors the rename introduces or fixes. An
// answer from a server still loading the project may miss uses, so it is only shown, never written.
import * as v from "valibot";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { ServerRefusal } from "../../lsp/server-refusal.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { editFields } from "./edit-fields.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { positionFields } from "./position-input.ts";

const METHOD = "textDocument/rename";

export default defineTool({
  name: "renameSymbol",
  title: "Rename symbol",
  description:
    "Renames a variable, function, class or other symbol and every use of it across the project (all files or none), with the diff and the errors it introduces or fixes.",
  searchHint: "rename symbol rename variable function class method refactor all usages across files",
  input: v.strictObject({
    ...positionFields,
    newName: v.pipe(v.string(), v.minLength(1), v.description("The new name.")),
    ...editFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: 120_000,
  slim: true,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: METHOD });
    let answer: Awaited<ReturnType<typeof at.doc.wholeProject<WorkspaceEdit | null>>>;
    try {
      answer = await at.doc.wholeProject<WorkspaceEdit | null>(METHOD, { ...at.params, newName: input.newName });
    } catch (err) {
      // Servers refuse with a message that says why ("You cannot rename this element").
      if (err instanceof ServerRefusal) {
        throw new ToolError("not_supported", `Cannot rename \`${at.name}\`: ${err.reason}`, {
          suggestion: "Check the line and symbol (prepareRename says what can be renamed).",
        });
      }
      throw err;
    }
    if (answer.value === null)
      throw new ToolError(
        "not_supported",
        `${at.doc.server.serverName} cannot rename \`${at.name}\` at ${at.doc.relative}:${at.position.line + 1}`,
        { suggestion: "Check the line and symbol (prepareRename says what can be renamed)." },
      );
    const outcome = await ctx.lsp.applyEdit(at.doc.server, answer.value, {
      dryRun: input.dryRun || !answer.complete,
      onlyIfNoNewErrors: input.onlyIfNoNewErrors,
      signal: ctx.signal,
    });
    if (!answer.complete && !input.dryRun)
      outcome.heldBack = `${answer.why ?? "the server was not ready"}, so uses may be missing; call again once it is`;
    return renderOutcome(outcome, {
      done: `Renamed \`${at.name}\` to \`${input.newName}\``,
      would: `Would rename \`${at.name}\` to \`${input.newName}\``,
      server: at.doc.server.serverName,
    });
  },
});
