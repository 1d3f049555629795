// gitAbortOperation: gives up the merge, rebase, cherry-pick or revert in progress (`--abort`:
// back to where it started), or with skip drops only the commit it stopped on and goes on
// (`--skip`). Both throw work away, so the answer lists what was discarded; a bisect is ended with
// `git bisect reset`.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { refuseExecSteps } from "../../services/git/operation.ts";
import { commitsDropped, readOperationState, type OperationState } from "../../services/git/operation-state.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import {
  afterStep,
  MAX_LISTED,
  OPERATION_TIMEOUT_MS,
  OperationOutcome,
  requireOperation,
  touchedOutside,
  type OperationOutcome as Outcome,
} from "./operation-outcome.ts";

export default defineTool({
  name: "gitAbortOperation",
  title: "Git abort rebase/merge",
  description:
    "Aborts the rebase, merge, cherry-pick or revert in progress, restoring the state before it; with skip, skips only the commit it stopped on and goes on. Lists what was discarded.",
  searchHint: "git abort rebase merge cherry-pick revert cancel give up skip this commit undo conflicted pull",
  input: v.strictObject({
    skip: v.optional(v.pipe(v.boolean(), v.description("Drop the commit it stopped on and go on (not for a merge).")), false),
  }),
  output: OperationOutcome,
  annotations: { readOnlyHint: false, destructiveHint: true },
  timeoutMs: OPERATION_TIMEOUT_MS,
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    const before = await readOperationState(repo);
    const operation = requireOperation(before, "gitAbortOperation");
    if (input.skip && (operation === "merge" || operation === "bisect")) {
      throw new ToolError("invalid_arguments", `A ${operation} has no single commit to skip`, {
        suggestion:
          operation === "merge"
            ? "gitAbortOperation without skip gives up the whole merge."
            : "Mark the commit with `git bisect skip` in a terminal; gitAbortOperation without skip ends the bisect.",
      });
    }
    if (operation === "bisect") {
      await repo.run(["bisect", "reset"]);
      const after = await readOperationState(repo);
      const ended: Outcome = { operation, state: "done", branch: after.branch, head: short(after.head) };
      return { ...ended, ...(await touchedOutside(repo, { before, after })) };
    }
    if (input.skip) {
      if (operation === "rebase") await refuseExecSteps(ctx, repo);
      // --skip goes on to the next commits, each committed without an editor, as in a continue.
      const result = await repo.run(["-c", "core.editor=true", operation, "--skip"], { okExitCodes: [1] });
      const { outcome, state } = await afterStep(repo, operation, result);
      return {
        ...outcome,
        discarded: { ...(before.stoppedAt === undefined ? {} : { commit: before.stoppedAt }), ...lostFiles(before, state) },
        ...(await touchedOutside(repo, { before, after: state })),
      };
    }
    await repo.run([operation, "--abort"]);
    const after = await readOperationState(repo);
    const commits = await commitsDropped(repo, before.head);
    const outcome: Outcome = {
      operation,
      state: "done",
      branch: after.branch,
      head: short(after.head),
      discarded: { ...(commits > 0 ? { commits } : {}), ...lostFiles(before, after) },
      ...(await touchedOutside(repo, { before, after })),
    };
    return outcome;
  },
});

/**
 * The files changed before the step and clean after it, or in conflict again (the next commit's
 * attempt replaced what was there): what the step threw away. Changes it kept (a merge's abort
 * keeps local edits it did not touch; a rebase's autostash comes back) are not lost.
 */
function lostFiles(before: OperationState, after: OperationState): { files: string[]; omittedFiles?: number } {
  const kept = new Set(after.changed);
  for (const c of after.conflicts) kept.delete(c.path);
  const lost = before.changed.filter((p) => !kept.has(p));
  return { files: lost.slice(0, MAX_LISTED), ...(lost.length > MAX_LISTED ? { omittedFiles: lost.length - MAX_LISTED } : {}) };
}

function short(hash: string | null): string | null {
  return hash === null ? null : hash.slice(0, 10);
}
