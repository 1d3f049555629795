// The paths staged now (index vs HEAD, or vs nothing before the first commit), relative to the
// workspace root, and the files a commit changed (a merge: against its first parent, what it
// brought into the branch; diff-tree shows a merge nothing by default).
import { NO_DIFF_PROGRAMS } from "./git-environment.ts";
import type { Repository } from "./repository.ts";

export async function stagedFiles(repo: Repository): Promise<string[]> {
  return nulList(await repo.output(["diff", ...NO_DIFF_PROGRAMS, "--cached", "--name-only", "-z", "--relative", "--", "."]));
}

export async function committedFiles(repo: Repository, rev = "HEAD"): Promise<string[]> {
  return nulList(
    await repo.output([
      "diff-tree",
      ...NO_DIFF_PROGRAMS,
      "--no-commit-id",
      "--root",
      "-r",
      "--diff-merges=first-parent",
      "--name-only",
      "-z",
      "--relative",
      "--end-of-options",
      rev,
      "--",
      ".",
    ]),
  );
}

function nulList(output: string): string[] {
  return output.split("\0").filter((p) => p !== "");
}
