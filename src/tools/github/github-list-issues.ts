// githubListIssues: issues of the repository, newest activity first (pull requests left out: the
// issues API lists both, githubListPRs lists those).
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { IssueShape, labelNames, loginOf } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, NameListInput, RepoInput, StateInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubListIssues",
  title: "List GitHub issues",
  description:
    "Lists GitHub issues of the repository (not pull requests), most recently updated first; filter by state, labels, assignee or author.",
  searchHint: "github list issues open bugs tickets backlog labels assignee gh",
  input: v.strictObject({
    state: StateInput,
    labels: NameListInput("Only issues with all of these labels."),
    assignee: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9-]{1,39}$|^\*$|^none$/, "a GitHub login, * or none"),
        v.description('A login, "none" or "*".'),
      ),
    ),
    author: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,39}$/, "a GitHub login"), v.description("Only issues opened by this login.")),
    ),
    limit: LimitInput,
    repo: RepoInput,
  }),
  output: v.object({
    issues: v.array(
      v.object({
        number: v.number(),
        title: v.string(),
        state: v.string(),
        author: v.string(),
        labels: v.array(v.string()),
        comments: v.number(),
        updatedAt: v.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const query = {
      state: input.state,
      sort: "updated",
      per_page: input.limit,
      labels: input.labels?.join(","),
      assignee: input.assignee,
      creator: input.author,
    };
    const items = await gh.json(v.array(IssueShape), "GET", `${gh.repoPath}/issues`, { query });
    const issues = items
      .filter((i) => i.pull_request === undefined)
      .map((i) => ({
        number: i.number,
        title: i.title,
        state: i.state,
        author: loginOf(i.user),
        labels: labelNames(i.labels),
        comments: i.comments,
        updatedAt: i.updated_at,
      }));
    return { issues };
  },
});
