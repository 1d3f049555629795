// gitPush: pushes a branch to its remote. Force exists only as --force-with-lease (with
// --force-if-includes): it overwrites the remote branch only if it is where this clone last saw
// it, so nobody's newer commits are lost. main, master and the remote's default branch are refused
// unless the bridge runs with --allow-push-to-main: those go through pull requests.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { currentBranch } from "../../services/git/head.ts";
import { gitProgress } from "../../services/git/progress.ts";
import { branchName } from "../../services/git/refs.ts";
import { localReceivePack, mainBranches, remoteFor } from "../../services/git/remotes.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NETWORK_TIMEOUT_MS } from "./git-fetch.ts";

// `git push --porcelain` flags (git-push(1), "OUTPUT").
const OUTCOMES: Record<string, string> = { " ": "fast-forward", "+": "forced", "*": "new branch", "=": "up to date", "-": "deleted" };

export default defineTool({
  name: "gitPush",
  title: "Git push",
  description:
    "Pushes a branch (default: the current one) to its remote; setUpstream makes it track it; force is --force-with-lease. Refuses main/master unless the bridge allows it.",
  searchHint: "git push upload branch remote origin publish set upstream force with lease",
  input: v.strictObject({
    remote: v.optional(v.pipe(v.string(), v.description("Remote to push to (default: the branch's remote, else origin)."))),
    branch: v.optional(v.pipe(v.string(), v.description("Branch to push (default: current)."))),
    setUpstream: v.optional(v.pipe(v.boolean(), v.description("Set the pushed branch as upstream.")), false),
    force: v.optional(v.pipe(v.boolean(), v.description("--force-with-lease.")), false),
  }),
  output: v.object({
    remote: v.string(),
    branch: v.string(),
    outcome: v.pipe(v.string(), v.description('"new branch", "fast-forward", "forced" or "up to date".')),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: NETWORK_TIMEOUT_MS,
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "remote");
    const branch = input.branch === undefined ? await currentBranch(repo) : branchName(input.branch);
    if (branch === null) {
      throw new ToolError("invalid_ref", "HEAD is detached, so there is no current branch to push", {
        suggestion: "Create a branch for these commits with gitCheckout (create: true), or pass branch.",
      });
    }
    const remote = await remoteFor(repo, { branch, given: input.remote });
    if (!ctx.settings.allowPushToMain && (await mainBranches(repo, remote)).includes(branch)) {
      throw new ToolError("branch_protected", `Pushing to ${remote}/${branch} is refused: it is a main branch`, {
        suggestion:
          "Push a feature branch (gitCheckout with create: true, then gitPush with setUpstream: true) and open a pull request with githubCreatePR; or start the bridge with --allow-push-to-main.",
      });
    }
    const ref = `refs/heads/${branch}`;
    const receivePack = await localReceivePack(repo, { remote, hooks: ctx.settings.allowGitHooks === true });
    const args = [
      "push",
      ...receivePack,
      "--progress",
      "--porcelain",
      ...(input.setUpstream ? ["--set-upstream"] : []),
      ...(input.force ? ["--force-with-lease", "--force-if-includes"] : []),
      "--end-of-options",
      remote,
      `${ref}:${ref}`,
    ];
    const result = await repo.run(args, { onOutput: gitProgress(ctx) });
    const line = result.stdout.split("\n").find((l) => l.includes(`\t${ref}:${ref}\t`));
    const outcome = OUTCOMES[line?.[0] ?? "="] ?? "pushed";
    ctx.events.publish("git.push", { remote, branch, setUpstream: input.setUpstream, force: input.force });
    return { remote, branch, outcome };
  },
});
