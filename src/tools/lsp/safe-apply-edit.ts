// safeApplyEdit: an edit written only when the language server finds it introduces no error,
// across the edited files and the files that import them (a caller it breaks in another file
// counts). Checked first without writing; refused, nothing written, when it introduces an error or
// when a file's errors could not be known in time; otherwise written exactly as checked (the digest
// of the check) and counted again on the files as written, and by the language's own checker
// (checked-apply.ts). With a transaction, it is checked on top of what the transaction stages
// (only errors beyond the transaction's own count) and staged there instead of written: the commit
// writes it with the rest.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { EditedFiles, ProposedEdits } from "../../services/lsp-speculative/proposed-edits.ts";
import { serverFor, simulate, usersOf } from "../../services/lsp-speculative/speculative-check.ts";
import { defineTool } from "../platform/define-tool.ts";
import { applyChecked } from "./checked-apply.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { stageAll, stagedBaseline, stagedDeltaLines, TransactionField } from "./simulate-staged.ts";

export default defineTool({
  name: "safeApplyEdit",
  title: "Apply an edit only if it breaks nothing",
  description:
    "Writes an edit only if the language server finds it introduces no error in the project (callers in other files included); otherwise writes nothing and lists the new errors.",
  searchHint: "safe apply edit only if it compiles no new errors guarded write refuse breaking change type checked edit",
  input: v.strictObject({ edits: ProposedEdits, transactionId: TransactionField }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: 180_000,
  async handler(input, ctx) {
    if (input.transactionId !== undefined) return stageIfSafe(ctx, input.edits, input.transactionId);
    const files = new EditedFiles(ctx);
    await files.apply(input.edits);
    const users = await usersOf(ctx, files.paths());
    const check = await simulate(ctx, files, { users });
    const words = { done: "Applied the edit", would: "Would apply the edit", server: check.server.serverName };
    const unknown = [...check.outcome.late, ...check.unchecked];
    if (check.outcome.introduced.length > 0 || unknown.length > 0) {
      const why =
        check.outcome.introduced.length > 0
          ? `it would introduce ${check.outcome.introduced.length} error${check.outcome.introduced.length === 1 ? "" : "s"}`
          : `the errors of ${unknown.join(", ")} could not be known`;
      return renderOutcome({ ...check.outcome, heldBack: `${why} (safeApplyEdit)` }, words);
    }
    const { server } = await serverFor(ctx, files);
    const first = files.paths()[0];
    const outcome = await applyChecked(ctx, server, {
      edit: files.workspaceEdit(),
      languageId: (first === undefined ? undefined : ctx.lsp.languageOf(ctx.fs.relative(first))) ?? "",
      dryRun: false,
      onlyIfNoNewErrors: true,
      signal: ctx.signal,
      alsoCheck: users,
      expectDigest: check.outcome.digest,
    });
    return renderOutcome(outcome, words);
  },
});

/** Checks the edit on top of the transaction and stages it there when it adds no error; writes nothing. */
async function stageIfSafe(ctx: ToolContext, edits: v.InferOutput<typeof ProposedEdits>, transactionId: string): Promise<string> {
  const files = new EditedFiles(ctx);
  const baseline = await stagedBaseline(ctx, files, { transactionId });
  await files.apply(edits);
  const check = await simulate(ctx, files, { users: await usersOf(ctx, files.paths()) });
  const delta = stagedDeltaLines(baseline, check.outcome.introduced);
  const unknown = [...check.outcome.late, ...check.unchecked];
  const server = `checked by ${check.server.serverName}`;
  if (delta.added.length > 0 || unknown.length > 0) {
    const why =
      delta.added.length > 0
        ? `it would add ${delta.added.length} error${delta.added.length === 1 ? "" : "s"} to what ${baseline.tx.id} stages`
        : `the errors of ${unknown.join(", ")} could not be known`;
    return [`NOT STAGED: ${why} (safeApplyEdit, ${server}); the transaction is as it was and nothing was written.`, ...delta.lines].join(
      "\n",
    );
  }
  const changed = files.changed();
  await stageAll(ctx, baseline.tx, { changed });
  const names = changed.map((c) => c.relative).join(", ");
  return [
    `Staged in ${baseline.tx.id}: ${changed.length} file${changed.length === 1 ? "" : "s"} (${names}); nothing is written until commitTransaction (${server}).`,
    ...delta.lines,
  ].join("\n");
}
