// What gitContinueOperation and gitAbortOperation answer after their step: the operation is done,
// or it stopped again (on the next commit, with its conflicts), and what the model does next.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { gitFailure } from "../../services/git/git-failure.ts";
import { HOW_TO_FINISH, OPERATIONS, type Operation } from "../../services/git/operation.ts";
import { readOperationState, type OperationState } from "../../services/git/operation-state.ts";
import type { RunResult } from "../../capabilities/exec/exec.ts";
import type { Repository } from "../../services/git/repository.ts";
import { changedBetween, outsideWorkspace } from "../../services/git/workspace-scope.ts";

export const MAX_LISTED = 500;

/** A rebase, or a cherry-pick or revert of several commits, takes one step per commit. */
export const OPERATION_TIMEOUT_MS = 120_000;

const Commit = v.object({ hash: v.string(), subject: v.string() });

export const OperationOutcome = v.object({
  operation: v.picklist(OPERATIONS),
  state: v.pipe(
    v.picklist(["done", "stopped"]),
    v.description('"done": finished or given up, nothing in progress; "stopped": stopped again, see stoppedAt, conflicts and next.'),
  ),
  branch: v.pipe(v.nullable(v.string()), v.description("null while HEAD is detached (always during a rebase).")),
  head: v.pipe(v.nullable(v.string()), v.description("HEAD's short hash now.")),
  stoppedAt: v.optional(v.pipe(Commit, v.description("The commit it stopped on: on a conflict, the one that did not apply cleanly."))),
  progress: v.optional(v.pipe(v.string(), v.description('Which of the rebase\'s commits it stopped on, as git counts: "2/5".'))),
  conflicts: v.optional(v.array(v.object({ path: v.string(), conflict: v.string() }))),
  next: v.optional(v.string()),
  discarded: v.optional(
    v.pipe(
      v.object({
        commit: v.optional(v.pipe(Commit, v.description("The commit skipped: its changes were not applied."))),
        commits: v.optional(
          v.pipe(v.number(), v.description("Commits the operation had made so far, dropped (still in `git reflog` for a while).")),
        ),
        files: v.pipe(
          v.array(v.string()),
          v.description(
            `Tracked files whose uncommitted changes (conflict resolutions included) were thrown away (at most ${MAX_LISTED}).`,
          ),
        ),
        omittedFiles: v.optional(v.number()),
      }),
      v.description("What the step threw away."),
    ),
  ),
  outsideWorkspace: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        "With the workspace a subfolder of its repository: files outside it that the step changed or reset (relative to the top level).",
      ),
    ),
  ),
});
export type OperationOutcome = v.InferOutput<typeof OperationOutcome>;

/**
 * With the workspace a subfolder of its repository, the files beside it that a step touched: those
 * whose commit changed (HEAD moved) or whose uncommitted state changed. An operation spans the
 * repository, so the step cannot be kept inside the workspace; the answer says what it reached.
 */
export async function touchedOutside(
  repo: Repository,
  opts: { before: OperationState; after: OperationState },
): Promise<{ outsideWorkspace?: string[] }> {
  if (repo.prefix === "") return {};
  const { before, after } = opts;
  const moved =
    before.head !== null && after.head !== null && before.head !== after.head
      ? await changedBetween(repo, { from: before.head, to: after.head })
      : [];
  const was = new Set(before.changedAtTop);
  const now = new Set(after.changedAtTop);
  const flipped = [...before.changedAtTop.filter((p) => !now.has(p)), ...after.changedAtTop.filter((p) => !was.has(p))];
  const outside = [...new Set(outsideWorkspace(repo, [...moved, ...flipped]))].sort();
  return outside.length === 0 ? {} : { outsideWorkspace: outside.slice(0, MAX_LISTED) };
}

/** The outcome of `git <operation> --continue|--skip`, run with exit 1 allowed (a new stop). */
export async function afterStep(
  repo: Repository,
  operation: Operation,
  result: RunResult,
): Promise<{ outcome: OperationOutcome; state: OperationState }> {
  const state = await readOperationState(repo);
  const where = { operation, branch: state.branch, head: state.head === null ? null : state.head.slice(0, 10) };
  if (state.operation === null && result.exitCode === 0) return { outcome: { ...where, state: "done" }, state };
  // Stopped with nothing in conflict after a failure: a hook refused, an `exec` step failed, a file
  // would be overwritten. That is git's message to read, not a new stop.
  if (result.exitCode !== 0 && state.conflicts.length === 0) throw stillInProgress(gitFailure(operation, result), state.operation);
  const progress = lastProgress(`${result.stderr}\n${result.stdout}`);
  return {
    outcome: {
      ...where,
      state: "stopped",
      ...(state.stoppedAt === undefined ? {} : { stoppedAt: state.stoppedAt }),
      ...(progress === undefined ? {} : { progress }),
      ...(state.conflicts.length === 0 ? {} : { conflicts: state.conflicts.slice(0, MAX_LISTED) }),
      next:
        state.conflicts.length > 0
          ? HOW_TO_FINISH[operation]
          : "It stopped where its todo list says (an edit or break step): make the changes you meant to make, then gitContinueOperation.",
    },
    state,
  };
}

function stillInProgress(failure: ToolError, operation: Operation | null): ToolError {
  if (operation === null) return failure;
  return new ToolError(failure.code, failure.message, {
    suggestion: `${failure.suggestion} The ${operation} is still in progress: after fixing that, gitContinueOperation again, or gitAbortOperation.`,
  });
}

/** git prints "Rebasing (2/5)" per commit, redrawn with "\r"; the last one is where it stopped. */
function lastProgress(output: string): string | undefined {
  const all = [...output.matchAll(/Rebasing \((\d+)\/(\d+)\)/g)];
  const last = all[all.length - 1];
  return last === undefined ? undefined : `${last[1]}/${last[2]}`;
}

/** The operation in progress, or the isError that there is none. */
export function requireOperation(state: OperationState, tool: string): Operation {
  if (state.operation !== null) return state.operation;
  throw new ToolError(
    "nothing_in_progress",
    `No merge, rebase, cherry-pick or revert is in progress, so there is nothing for ${tool} to do`,
    {
      suggestion: "getGitStatus shows the repository's state; a pull or merge that stopped on conflicts would show there as inProgress.",
    },
  );
}
