// Which pull request a tool means: the number given, else the open one whose head is the current
// branch (what `gh pr view` does without an argument).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { currentBranch } from "../../services/git/head.ts";
import { openRepository } from "../../services/git/repository.ts";
import type { GitHub } from "../../services/github/gh-api.ts";
import { PullShape } from "../../services/github/rest-shapes.ts";
import type { ToolContext } from "../../capabilities/context.ts";

export async function pullNumber(ctx: ToolContext, gh: GitHub, opts: { given: number | undefined }): Promise<number> {
  if (opts.given !== undefined) return opts.given;
  const branch = await currentBranch(await openRepository(ctx, "read"));
  if (branch === null)
    throw new ToolError("invalid_ref", "HEAD is detached, so no pull request belongs to the current branch", {
      suggestion: "Pass number (githubListPRs lists them).",
    });
  const open = await gh.json(v.array(PullShape), "GET", `${gh.repoPath}/pulls`, { query: { state: "open", per_page: 100 } });
  const mine = open.find((pr) => pr.head.ref === branch);
  if (mine === undefined) {
    throw new ToolError("github_not_found", `No open pull request has ${branch} as its head branch`, {
      suggestion: "Pass number (githubListPRs lists them), or open one with githubCreatePR.",
    });
  }
  return mine.number;
}
