// Which multi-step operation stopped midway in the repository (a merge with conflicts, a rebase at a
// conflict or an `edit`, a cherry-pick, a revert, a bisect), asked through git so that a linked
// worktree's or a submodule's git directory (outside the workspace) needs no file access: the
// pseudo-refs git writes for merge, cherry-pick and revert, and for rebase and bisect (HEAD is
// always detached then) the name `git branch` gives the detached HEAD, from git's own state reader.
import type { Repository } from "./repository.ts";

export const OPERATIONS = ["merge", "rebase", "cherry-pick", "revert", "bisect"] as const;
export type Operation = (typeof OPERATIONS)[number];

const PSEUDO_REFS: readonly (readonly [string, Operation])[] = [
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
];

/** What the model does next for each: how to finish, and how to give up. */
export const HOW_TO_FINISH: Readonly<Record<Operation, string>> = {
  merge: "resolve the conflicts, gitAdd the files, then gitCommit concludes the merge (or `git merge --abort`)",
  rebase: "resolve the conflicts, gitAdd the files, then `git rebase --continue` in a terminal (or `git rebase --abort`); a gitCommit now would not continue the rebase",
  "cherry-pick": "resolve the conflicts, gitAdd the files, then gitCommit concludes it (or `git cherry-pick --abort`)",
  revert: "resolve the conflicts, gitAdd the files, then gitCommit concludes it (or `git revert --abort`)",
  bisect: "mark commits with `git bisect good|bad` in a terminal, or end it with `git bisect reset`",
};

export async function operationInProgress(repo: Repository, opts: { detached: boolean }): Promise<Operation | null> {
  if (opts.detached) {
    const heads = await repo.output(["branch", "--list", "--format=%(HEAD)%(refname)"]);
    const current = heads.split("\n").find((line) => line.startsWith("*")) ?? "";
    if (/^\*\(no branch, rebasing /.test(current)) return "rebase";
    if (/^\*\(no branch, bisect started on /.test(current)) return "bisect";
  }
  // One call for the three: cat-file answers "<name> missing" for each that does not exist.
  const answer = await repo.output(["cat-file", "--batch-check=%(objectname)"], { stdin: PSEUDO_REFS.map(([ref]) => `${ref}\n`).join("") });
  const lines = answer.split("\n");
  const found = PSEUDO_REFS.find((_, i) => !(lines[i] ?? "missing").endsWith(" missing"));
  return found?.[1] ?? null;
}
