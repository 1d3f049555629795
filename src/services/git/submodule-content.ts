// What changed inside each submodule, asked the safe way. git's own answer (status running `git
// status` inside every submodule) would run the submodule's filters and textconv, named in a config
// the superproject's overrides know nothing of, so the runner tells git not to look
// (diff.ignoreSubmodules=dirty). Instead each submodule is opened as a repository of its own,
// through the same runner, which reads its config and neutralises it, and asked for its status.
// Submodules nested in a submodule are not looked into.
import type { ToolContext } from "../../capabilities/context.ts";
import { gitFailure } from "./git-failure.ts";
import type { Repository } from "./repository.ts";

/** Repository paths of the submodules under `where` (pathspecs) whose working trees have changes, with what changed. */
export async function dirtySubmodules(
  ctx: ToolContext,
  repo: Repository,
  opts: { where: readonly string[] },
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  // No .gitmodules in the index: no submodule, and one process instead of a listing of every file.
  const marked = await repo.run(["cat-file", "-e", ":.gitmodules"], { okExitCodes: [1, 128] });
  if (marked.exitCode !== 0) return found;
  const listed = await repo.output(["ls-files", "--stage", "-z", "--full-name", "--", ...opts.where], { maxOutputBytes: 64 * 1024 * 1024 });
  const gitlinks = listed
    .split("\0")
    .filter((record) => record.startsWith("160000 "))
    .map((record) => record.slice(record.indexOf("\t") + 1));
  for (const path of gitlinks) {
    const local = repo.workspacePath(path);
    // Not checked out (or outside the workspace): git has nothing inside to compare either.
    if (local.startsWith("../") || (await ctx.fs.entryStat(`${local}/.git`).catch(() => undefined)) === undefined) continue;
    const git = await ctx.exec.git({ access: "read", cwd: local });
    const status = await git.run(["status", "--porcelain=v2", "-z", "--untracked-files=normal"], { maxOutputBytes: 1024 * 1024 });
    if (status.exitCode !== 0) throw gitFailure("status", status);
    const records = status.stdout.split("\0");
    const what = [
      records.some((r) => /^[12u] /.test(r)) ? "modified content" : "",
      records.some((r) => r.startsWith("? ")) ? "untracked content" : "",
    ].filter((w) => w !== "");
    if (what.length > 0) found.set(path, what);
  }
  return found;
}
