// githubListPRs: pull requests of the repository, most recently updated first.
import * as v from "valibot";
import { branchName } from "../../services/git/refs.ts";
import { github } from "../../services/github/gh-api.ts";
import { PullShape } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, RepoInput, StateInput } from "./github-inputs.ts";
import { PullSummary, pullSummary } from "./pull-summary.ts";

export default defineTool({
  name: "githubListPRs",
  title: "List GitHub pull requests",
  description:
    "Lists GitHub pull requests of the repository, most recently updated first: number, title, state, draft, author and branches; filter by state or base branch.",
  searchHint: "github list pull requests open prs review queue branches gh",
  input: v.strictObject({
    state: StateInput,
    base: v.optional(v.pipe(v.string(), v.description("Only pull requests into this branch."))),
    limit: LimitInput,
    repo: RepoInput,
  }),
  output: v.object({ pullRequests: v.array(PullSummary) }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const query = {
      state: input.state,
      sort: "updated",
      direction: "desc",
      per_page: input.limit,
      base: input.base === undefined ? undefined : branchName(input.base, "base"),
    };
    const pulls = await gh.json(v.array(PullShape), "GET", `${gh.repoPath}/pulls`, { query });
    return { pullRequests: pulls.map(pullSummary) };
  },
});
