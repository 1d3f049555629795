// Which multi-step operation stopped midway in the repository (a merge with conflicts, a rebase at a
// conflict or an `edit`, a cherry-pick, a revert, a bisect), asked through git so that a linked
// worktree's or a submodule's git directory (outside the workspace) needs no file access: the
// pseudo-refs git writes for merge, cherry-pick and revert, and for rebase and bisect (HEAD is
// always detached then) the name `git branch` gives the detached HEAD, from git's own state reader;
// between the stops of a cherry-pick or revert of several commits, the sequencer's todo list.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { NO_DIFF_PROGRAMS } from "./git-environment.ts";
import type { Repository } from "./repository.ts";

export const OPERATIONS = ["merge", "rebase", "cherry-pick", "revert", "bisect"] as const;
export type Operation = (typeof OPERATIONS)[number];

const PSEUDO_REFS: readonly (readonly [string, Operation])[] = [
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
];

/** The pseudo-ref naming the commit each operation stopped on (a bisect has none of its own). */
export const STOPPED_AT_REF: Readonly<Record<Operation, string | undefined>> = {
  merge: "MERGE_HEAD",
  rebase: "REBASE_HEAD",
  "cherry-pick": "CHERRY_PICK_HEAD",
  revert: "REVERT_HEAD",
  bisect: undefined,
};

/** What the model does next for each: how to finish, and how to give up. */
export const HOW_TO_FINISH: Readonly<Record<Operation, string>> = {
  merge: "resolve the conflicts, then gitContinueOperation (files: the resolved ones) commits the merge; gitAbortOperation gives it up",
  rebase:
    "resolve the conflicts, then gitContinueOperation (files: the resolved ones) goes on to the next commit; gitAbortOperation restores the branch, with skip: true it drops only this commit",
  "cherry-pick":
    "resolve the conflicts, then gitContinueOperation (files: the resolved ones) commits it; gitAbortOperation gives it up, with skip: true it drops only this commit",
  revert:
    "resolve the conflicts, then gitContinueOperation (files: the resolved ones) commits it; gitAbortOperation gives it up, with skip: true it drops only this commit",
  bisect: "mark commits with `git bisect good|bad` in a terminal; gitAbortOperation ends it (git bisect reset)",
};

/**
 * `detached`: whether HEAD is detached, when the caller knows (only then can a rebase or bisect be
 * running); unknown, it is asked alongside. The probes run side by side: each is a git process,
 * and getGitStatus pays for them on every call.
 */
export async function operationInProgress(repo: Repository, opts: { detached?: boolean } = {}): Promise<Operation | null> {
  const [detachedState, pseudoRef, sequence] = await Promise.all([
    opts.detached === false ? null : detachedOperation(repo),
    pseudoRefOperation(repo),
    sequenceInProgress(repo),
  ]);
  return detachedState ?? pseudoRef ?? sequence;
}

async function detachedOperation(repo: Repository): Promise<Operation | null> {
  const heads = await repo.output(["branch", "--list", "--format=%(HEAD)%(refname)"]);
  const current = heads.split("\n").find((line) => line.startsWith("*")) ?? "";
  if (/^\*\(no branch, rebasing /.test(current)) return "rebase";
  if (/^\*\(no branch, bisect started on /.test(current)) return "bisect";
  return null;
}

async function pseudoRefOperation(repo: Repository): Promise<Operation | null> {
  // One call for the three: cat-file answers "<name> missing" for each that does not exist.
  const answer = await repo.output(["cat-file", "--batch-check=%(objectname)"], { stdin: PSEUDO_REFS.map(([ref]) => `${ref}\n`).join("") });
  const lines = answer.split("\n");
  return PSEUDO_REFS.find((_, i) => !(lines[i] ?? "missing").endsWith(" missing"))?.[1] ?? null;
}

/**
 * A cherry-pick or revert of several commits whose current commit was concluded by hand (a plain
 * `git commit`): no pseudo-ref is left, only the sequencer's todo list, whose first command says
 * which. git shows the file to us as a diff against nothing (`diff --no-index`, no diff programs):
 * the git directory may be outside the workspace, so the bridge's own file access cannot read it.
 */
async function sequenceInProgress(repo: Repository): Promise<Operation | null> {
  // Exit 1 is both "the file differs from nothing" and "no such file" (then stdout is empty).
  const todo = await repo.run(
    ["diff", "--no-index", ...NO_DIFF_PROGRAMS, "--no-color", "-U0", "--", "/dev/null", `${repo.gitDir}/sequencer/todo`],
    { okExitCodes: [1] },
  );
  const first = todo.stdout.split("\n").find((line) => line.startsWith("+") && !line.startsWith("+++"));
  if (first?.startsWith("+pick ") === true) return "cherry-pick";
  if (first?.startsWith("+revert ") === true) return "revert";
  return null;
}

/**
 * The `exec` steps left in a stopped interactive rebase's todo list: shell commands git runs as the
 * rebase goes on. The list is in the git directory, as writable to whoever wrote the repository
 * as its hooks, so they run under the same rule (src/services/git/skipped-hooks.ts).
 */
export async function pendingExecSteps(repo: Repository): Promise<string[]> {
  const todo = await repo.run(
    ["diff", "--no-index", ...NO_DIFF_PROGRAMS, "--no-color", "-U0", "--", "/dev/null", `${repo.gitDir}/rebase-merge/git-rebase-todo`],
    { okExitCodes: [1] },
  );
  return todo.stdout
    .split("\n")
    .filter((line) => line.startsWith("+") && !line.startsWith("+++"))
    .map((line) => line.slice(1).trim())
    .filter((line) => /^(x|exec)\s/.test(line));
}

/** Refuses to go on with a rebase whose todo list runs commands, unless the user allowed the repository's programs. */
export async function refuseExecSteps(ctx: Pick<ToolContext, "settings">, repo: Repository): Promise<void> {
  if (ctx.settings.allowGitHooks === true) return;
  const steps = await pendingExecSteps(repo);
  if (steps.length === 0) return;
  throw new ToolError(
    "command_refused",
    `The rebase's todo list runs commands the bridge does not run (${steps.slice(0, 3).join("; ")}${steps.length > 3 ? `; and ${steps.length - 3} more` : ""})`,
    {
      suggestion:
        "Continue the rebase in a terminal (`git rebase --continue`), or gitAbortOperation to give it up; a bridge started with --allow-git-hooks runs them.",
    },
  );
}
