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

/**
 * A push to a repository on this machine runs that repository's own hooks (pre-receive, update,
 * post-receive, reference-transaction) in a git that does not inherit the bridge's settings:
 * git clears command-line config for a local transport. So such a push names the receiving
 * program itself, with the hooks and the receiving repository's programs switched off (the
 * user can allow hooks with --allow-git-hooks). Over ssh or https the server's hooks are the
 * server's; naming a program there would break the push, so a remote with both kinds is refused.
 */
export async function localReceivePack(repo: Repository, opts: { remote: string; hooks: boolean }): Promise<string[]> {
  if (opts.hooks) return [];
  const urls = await pushUrls(repo, opts.remote);
  const local = urls.filter(isLocalUrl);
  if (local.length === 0) return [];
  if (local.length !== urls.length) {
    throw new ToolError("git_failed", `Remote ${opts.remote} pushes both to a repository on this machine and over the network`, {
      suggestion: "Push in a terminal, or give the local repository a remote of its own.",
    });
  }
  const off = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "core.alternateRefsCommand=true", "receive.denyCurrentBranch=refuse"];
  return [`--receive-pack=git ${off.map((c) => `-c ${c}`).join(" ")} receive-pack`];
}

/** Where a push to `remote` goes: its push URLs, or, when it names no remote, itself (git takes it as a URL or path). */
async function pushUrls(repo: Repository, remote: string): Promise<string[]> {
  try {
    return (await repo.output(["remote", "get-url", "--push", "--all", remote])).split("\n").filter((u) => u !== "");
  } catch (err) {
    if (err instanceof ToolError && /No such remote/.test(err.message)) return [remote];
    throw err;
  }
}

/** As git decides (url_is_local_not_ssh): file://, or a path with no "host:" before its first "/". */
function isLocalUrl(url: string): boolean {
  if (/^file:\/\//i.test(url)) return true;
  if (url.includes("://")) return false;
  const colon = url.indexOf(":");
  const slash = url.indexOf("/");
  return colon === -1 || (slash !== -1 && slash < colon);
}
