// Where HEAD is: the current branch (null when detached or unborn) and its short commit.
import type { Repository } from "./repository.ts";

export async function currentBranch(repo: Repository): Promise<string | null> {
  const out = (await repo.run(["symbolic-ref", "--quiet", "--short", "HEAD"], { okExitCodes: [1] })).stdout.trim();
  return out === "" ? null : out;
}

/** The short hash of a revision that must exist (HEAD after a commit, say). */
export async function shortHash(repo: Repository, rev = "HEAD"): Promise<string> {
  return (await repo.output(["rev-parse", "--short=10", "--verify", "--end-of-options", rev])).trim();
}

/** HEAD's short hash, or null before the first commit. */
export async function headCommit(repo: Repository): Promise<string | null> {
  const out = (await repo.run(["rev-parse", "--short=10", "--quiet", "--verify", "HEAD"], { okExitCodes: [1] })).stdout.trim();
  return out === "" ? null : out;
}
