// gitPull: fetches and integrates the upstream's commits into the current branch, by merge or by
// rebase. A conflict stops it with the conflicted files named and the repository left mid-merge
// (or mid-rebase) for the conflicts to be resolved.
import * as v from "valibot";
import { currentBranch, headCommit, shortHash } from "../../services/git/head.ts";
import { gitProgress } from "../../services/git/progress.ts";
import { branchName, remoteName } from "../../services/git/refs.ts";
import { remoteFor } from "../../services/git/remotes.ts";
import { changedBetween, outsideWorkspace } from "../../services/git/workspace-scope.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NETWORK_TIMEOUT_MS } from "./git-fetch.ts";

export default defineTool({
  name: "gitPull",
  title: "Git pull",
  description:
    "Pulls the upstream's new commits into the current branch: a merge, or with rebase a replay of local commits on top. Conflicts come back as an error naming the files.",
  searchHint: "git pull update branch merge rebase upstream remote changes sync",
  input: v.strictObject({
    remote: v.optional(v.pipe(v.string(), v.description("Remote to pull from (default: the branch's upstream)."))),
    branch: v.optional(v.pipe(v.string(), v.description("Remote branch to pull (default: the upstream branch)."))),
    rebase: v.optional(v.pipe(v.boolean(), v.description("Rebase local commits onto the pulled ones instead of merging.")), false),
  }),
  output: v.object({
    branch: v.nullable(v.string()),
    head: v.pipe(v.string(), v.description("HEAD's short hash after the pull.")),
    previousHead: v.pipe(v.nullable(v.string()), v.description("null when the branch had no commits before.")),
    newCommits: v.pipe(
      v.number(),
      v.description("Commits in HEAD that were not in it before (after a rebase, the replayed local ones too)."),
    ),
    outsideWorkspace: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          "With the workspace a subfolder of its repository: files the pull changed outside it (relative to the repository's top level).",
        ),
      ),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  timeoutMs: NETWORK_TIMEOUT_MS,
  async handler(input, ctx) {
    const from = input.branch === undefined ? undefined : branchName(input.branch);
    const repo = await openRepository(ctx, "remote");
    const [branch, previousHead] = await Promise.all([currentBranch(repo), headCommit(repo)]);
    // A branch to pull needs a remote in git's argv: the branch's own remote when none was given.
    const remote =
      from !== undefined
        ? await remoteFor(repo, { branch, given: input.remote })
        : input.remote === undefined
          ? undefined
          : remoteName(input.remote);
    const target = remote === undefined ? [] : [remote, ...(from === undefined ? [] : [from])];
    // --no-stat: the diffstat would be the only diff a pull prints, and needs no textconv run.
    const args = ["pull", "--progress", "--no-stat", "--no-edit", input.rebase ? "--rebase" : "--no-rebase", "--end-of-options", ...target];
    await repo.run(args, { onOutput: gitProgress(ctx) });
    const head = await shortHash(repo);
    const newCommits = Number(
      (await repo.output(["rev-list", "--count", "--end-of-options", previousHead === null ? head : `${previousHead}..${head}`])).trim(),
    );
    ctx.events.publish("git.pull", { remote: remote ?? null, branch, rebase: input.rebase, head });
    // A pull merges the whole repository; with the workspace a subfolder of it, say what changed beside it.
    const outside = previousHead === null ? [] : outsideWorkspace(repo, await changedBetween(repo, { from: previousHead, to: head }));
    return { branch, head, previousHead, newCommits, ...(outside.length === 0 ? {} : { outsideWorkspace: outside.slice(0, 50) }) };
  },
});
