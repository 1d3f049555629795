// gitContinueOperation: goes on with the merge, rebase, cherry-pick or revert that stopped on
// conflicts, once they are resolved: stages the resolved files given, refuses while a file is still
// in conflict or staged with conflict markers, then runs `git <operation> --continue` without an
// editor (commit messages stay as git prepared them). The operation is read from the repository.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { stagedConflictMarkers } from "../../services/git/conflict-markers.ts";
import { HOW_TO_FINISH, refuseExecSteps } from "../../services/git/operation.ts";
import { readOperationState } from "../../services/git/operation-state.ts";
import { repositoryTop } from "../../services/git/partial-view.ts";
import { pathspecs } from "../../services/git/pathspec.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { PathListInput } from "./git-inputs.ts";
import { afterStep, OPERATION_TIMEOUT_MS, OperationOutcome, requireOperation, touchedOutside } from "./operation-outcome.ts";

/** Files named in a refusal; the rest are counted. */
const MAX_NAMED = 20;

export default defineTool({
  name: "gitContinueOperation",
  title: "Git continue rebase/merge",
  description:
    "Continues the rebase, merge, cherry-pick or revert stopped on conflicts, after they are resolved (files: stages them first). Says whether it finished or stopped again, on which commit.",
  searchHint: "git continue rebase merge cherry-pick revert resolve conflicts and continue finish conclude resume",
  input: v.strictObject({
    files: PathListInput("Resolved files to stage first."),
    keepMarkers: v.optional(v.pipe(v.boolean(), v.description("Continue although staged files hold conflict-marker-like lines.")), false),
  }),
  output: OperationOutcome,
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: OPERATION_TIMEOUT_MS,
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    let state = await readOperationState(repo);
    const operation = requireOperation(state, "gitContinueOperation");
    if (operation === "bisect") {
      throw new ToolError("operation_in_progress", "A bisect is in progress: it goes on by marking commits, not by continuing", {
        suggestion: `${HOW_TO_FINISH.bisect}.`,
      });
    }
    if (input.files !== undefined) {
      await repo.run(["add", "--", ...(await pathspecs(ctx.fs, input.files))]);
      state = await readOperationState(repo);
    }
    if (state.conflicts.length > 0) {
      const names = state.conflicts.map((c) => `${c.path} (${c.conflict})`);
      // With the workspace a subfolder of its repository, a conflict beside it is out of the tools' reach.
      const outside = state.conflicts.filter((c) => c.path.startsWith("../")).length;
      if (outside > 0) {
        throw new ToolError(
          "merge_conflict",
          `${state.conflicts.length} file(s) are still in conflict, ${outside} of them outside the workspace (its repository spans more than the workspace), so the ${operation} cannot continue: ${listed(names)}`,
          {
            suggestion: `Resolve the files outside the workspace in a terminal at the repository's top level (${repositoryTop(repo)}), or gitAbortOperation to give up the whole ${operation}.`,
          },
        );
      }
      throw new ToolError(
        "merge_conflict",
        `${state.conflicts.length} file(s) are still in conflict, so the ${operation} cannot continue: ${listed(names)}`,
        {
          suggestion: `Edit each to its resolved content (no <<<<<<< ======= >>>>>>> lines left), then gitContinueOperation with files: ${JSON.stringify(state.conflicts.slice(0, MAX_NAMED).map((c) => c.path))}; or gitAbortOperation to give up the ${operation}.`,
        },
      );
    }
    if (!input.keepMarkers) {
      const marked = await stagedConflictMarkers(repo);
      if (marked.length > 0) {
        throw new ToolError(
          "merge_conflict",
          `Staged file(s) still have conflict markers, so the ${operation} does not continue: ${listed(marked.map((m) => `${m.path} (lines ${m.lines.slice(0, 5).join(", ")})`))}`,
          {
            suggestion:
              "Finish resolving them (remove the marker lines, keep the right content), stage them with files, and continue again; if the markers are meant to be there, pass keepMarkers: true.",
          },
        );
      }
    }
    if (operation === "rebase") await refuseExecSteps(ctx, repo);
    // GIT_EDITOR=true in the environment already keeps every message editor closed; core.editor=true
    // says so in the argv too.
    const result = await repo.run(["-c", "core.editor=true", operation, "--continue"], { okExitCodes: [1] });
    const after = await afterStep(repo, operation, result);
    return { ...after.outcome, ...(await touchedOutside(repo, { before: state, after: after.state })) };
  },
});

function listed(names: readonly string[]): string {
  return names.length > MAX_NAMED ? `${names.slice(0, MAX_NAMED).join(", ")} and ${names.length - MAX_NAMED} more` : names.join(", ");
}
