// Whether commits made outside the bridge (a terminal's, an editor's) can be seen at all: the commit
// watcher (src/services/git/commit-watcher.ts) follows the reflog of HEAD, and git writes one only
// where it can. git appends to an existing .git/logs/HEAD whatever core.logAllRefUpdates says, and
// creates it at the next move of HEAD unless core.logAllRefUpdates is false (the default in a bare
// repository, which has no working tree for the bridge to serve anyway). So where the setting is false
// and no reflog exists, or the workspace is no git working tree, onGitCommit fires for the bridge's
// own gitCommit only; the bridge says so once in the log, in /health and in doctor.
import { errorMessage } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Fs } from "../../ports/fs.ts";
import { openRepository } from "../git/repository.ts";

export type OutsideCommits = { seen: true } | { seen: false; reason: string; fix: string };

/** git's false spellings of a boolean. */
const FALSE = new Set(["false", "no", "off", "0"]);

export async function outsideCommitsSeen(ctx: ToolContext, fs: Pick<Fs, "stat">): Promise<OutsideCommits> {
  let repo: Awaited<ReturnType<typeof openRepository>>;
  try {
    repo = await openRepository(ctx, "read");
  } catch (err) {
    return {
      seen: false,
      reason: `the workspace is not a git working tree git can read (${errorMessage(err)})`,
      fix: "open a repository's working tree as the workspace",
    };
  }
  const reflog = `${repo.gitDir}/logs/HEAD`;
  if (
    await fs.stat(reflog).then(
      () => true,
      () => false,
    )
  )
    return { seen: true };
  const setting = [...repo.config]
    .reverse()
    .find((e) => e.key === "core.logallrefupdates")
    ?.value?.toLowerCase();
  if (setting !== undefined && FALSE.has(setting)) {
    return {
      seen: false,
      reason: `core.logAllRefUpdates is ${setting} and ${reflog} does not exist, so git keeps no reflog of HEAD to follow`,
      fix: "git config core.logAllRefUpdates true (git starts the reflog at the next commit), then restart the bridge",
    };
  }
  return { seen: true };
}
