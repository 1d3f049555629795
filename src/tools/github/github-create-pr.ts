// githubCreatePR: opens a pull request from a pushed branch (default: the current one) into the
// repository's default branch. Without a title, the branch's newest commit gives title and body,
// as `gh pr create --fill` does for a one-commit branch.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { currentBranch } from "../../services/git/head.ts";
import { branchName } from "../../services/git/refs.ts";
import { records } from "../../services/git/records.ts";
import { openRepository } from "../../services/git/repository.ts";
import { github } from "../../services/github/gh-api.ts";
import { PullShape, repoOfUrl, RepoShape } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { BodyInput, RepoInput, TitleInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubCreatePR",
  title: "Create GitHub pull request",
  description:
    "Opens a GitHub pull request from a pushed branch (default: the current one) into base (default: the repository's default branch); title and body default to the last commit's.",
  searchHint: "github create pull request open pr merge request review gh",
  input: v.strictObject({
    title: v.optional(TitleInput),
    body: v.optional(BodyInput("The description.")),
    head: v.optional(v.pipe(v.string(), v.description("Pushed branch with the changes (default: current)."))),
    base: v.optional(v.pipe(v.string(), v.description("Branch to merge into (default: the default)."))),
    draft: v.optional(v.pipe(v.boolean(), v.description("Open it as a draft.")), false),
    repo: RepoInput,
  }),
  output: v.object({ number: v.number(), url: v.string(), head: v.string(), base: v.string(), draft: v.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  requires: { probes: ["git"] },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const head = input.head === undefined ? await currentBranch(repo) : branchName(input.head, "head");
    if (head === null)
      throw new ToolError("invalid_ref", "HEAD is detached: there is no branch to open a pull request from", {
        suggestion: "Pass head, or gitCheckout a branch first.",
      });
    const [[subject = "", message = ""] = []] = records(
      await repo.output(["log", "--max-count=1", "--format=%s%x1f%b%x1e", "--end-of-options", head]),
    );
    const gh = github(ctx, input.repo);
    const base = input.base === undefined ? (await gh.json(RepoShape, "GET", gh.repoPath)).default_branch : branchName(input.base, "base");
    const title = input.title ?? subject;
    const body = input.body ?? (input.title === undefined ? message.trim() : "");
    try {
      const pr = await gh.json(PullShape, "POST", `${gh.repoPath}/pulls`, { body: { title, head, base, body, draft: input.draft } });
      ctx.events.publish("github.pullRequest", { action: "created", repo: repoOfUrl(pr.html_url), number: pr.number, url: pr.html_url });
      return { number: pr.number, url: pr.html_url, head, base, draft: pr.draft };
    } catch (err) {
      if (err instanceof ToolError && /HTTP 422/.test(err.message)) {
        throw new ToolError(err.code, err.message, {
          suggestion: `Push ${head} first (gitPush with setUpstream: true); if a pull request for it exists already, githubListPRs shows it; "No commits between" means ${head} has nothing that ${base} lacks.`,
        });
      }
      throw err;
    }
  },
});
