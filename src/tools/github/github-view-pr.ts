// githubViewPR: one pull request with its description, size and mergeability.
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { PullShape } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NumberInput, RepoInput } from "./github-inputs.ts";
import { pullNumber } from "./pull-number.ts";
import { PullSummary, pullSummary } from "./pull-summary.ts";

export default defineTool({
  name: "githubViewPR",
  title: "View GitHub pull request",
  description:
    "Reads a GitHub pull request (default: the current branch's): title, state, branches, author, description, changed files and lines, and whether it can merge.",
  searchHint: "github view pull request pr details description status mergeable gh",
  input: v.strictObject({
    number: v.optional(NumberInput("PR number (default: this branch's).")),
    repo: RepoInput,
  }),
  output: v.object({
    ...PullSummary.entries,
    url: v.string(),
    body: v.string(),
    mergeable: v.pipe(v.nullable(v.boolean()), v.description("null while GitHub is still computing it.")),
    changedFiles: v.number(),
    additions: v.number(),
    deletions: v.number(),
    headSha: v.string(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  requires: { probes: ["git"] },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const number = await pullNumber(ctx, gh, { given: input.number });
    const pr = await gh.json(PullShape, "GET", `${gh.repoPath}/pulls/${number}`);
    return {
      ...pullSummary(pr),
      url: pr.html_url,
      body: pr.body ?? "",
      mergeable: pr.mergeable ?? null,
      changedFiles: pr.changed_files ?? 0,
      additions: pr.additions ?? 0,
      deletions: pr.deletions ?? 0,
      headSha: pr.head.sha.slice(0, 10),
    };
  },
});
