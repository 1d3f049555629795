// Which remote a branch talks to, and which branches of a remote are its main line.
import { ToolError } from "../../errors.ts";
import { remoteName } from "./refs.ts";
import type { Repository } from "./repository.ts";

/** Never pushed to without --allow-push-to-main, with the remote's own default branch. */
const MAIN_BRANCHES = ["main", "master"];

/** The remote given, else the branch's configured remote, else "origin". */
export async function remoteFor(repo: Repository, opts: { branch: string | null; given: string | undefined }): Promise<string> {
  const { branch, given } = opts;
  if (given !== undefined) return remoteName(given);
  if (branch === null) return "origin";
  const configured = (await repo.run(["config", "--get", `branch.${branch}.remote`], { okExitCodes: [1] })).stdout.trim();
  if (configured === "") return "origin";
  try {
    return remoteName(configured);
  } catch {
    throw new ToolError("invalid_ref", `Branch ${branch}'s configured remote ${JSON.stringify(configured)} is not a named remote`, {
      suggestion: 'Pass remote explicitly, e.g. "origin".',
    });
  }
}

/** main, master and what refs/remotes/<remote>/HEAD points at (the remote's default branch). */
export async function mainBranches(repo: Repository, remote: string): Promise<string[]> {
  const head = (
    await repo.run(["symbolic-ref", "--quiet", "--short", `refs/remotes/${remote}/HEAD`], { okExitCodes: [1, 128] })
  ).stdout.trim();
  const defaultBranch = head.startsWith(`${remote}/`) ? head.slice(remote.length + 1) : undefined;
  return defaultBranch === undefined || MAIN_BRANCHES.includes(defaultBranch) ? MAIN_BRANCHES : [...MAIN_BRANCHES, defaultBranch];
}
