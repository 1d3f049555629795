// githubGetIssue: one issue (or pull request, as an issue) with its description and comments.
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { CommentShape, IssueShape, labelNames, loginOf } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NumberInput, RepoInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubGetIssue",
  title: "Get GitHub issue",
  description:
    "Reads a GitHub issue: title, state, author, labels, assignees, its Markdown description and the comments (oldest first, up to commentLimit).",
  searchHint: "github get issue read view details comments bug ticket gh",
  input: v.strictObject({
    number: NumberInput("The issue number."),
    commentLimit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100), v.description("Most comments to include (default 30; 0 for none).")),
      30,
    ),
    repo: RepoInput,
  }),
  output: v.object({
    number: v.number(),
    title: v.string(),
    state: v.string(),
    author: v.string(),
    labels: v.array(v.string()),
    assignees: v.array(v.string()),
    createdAt: v.string(),
    url: v.string(),
    body: v.string(),
    isPullRequest: v.boolean(),
    comments: v.array(v.object({ author: v.string(), createdAt: v.string(), body: v.string() })),
    totalComments: v.number(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const path = `${gh.repoPath}/issues/${input.number}`;
    const issue = await gh.json(IssueShape, "GET", path);
    const comments =
      input.commentLimit === 0 || issue.comments === 0
        ? []
        : await gh.json(v.array(CommentShape), "GET", `${path}/comments`, { query: { per_page: input.commentLimit } });
    return {
      number: issue.number,
      title: issue.title,
      state: issue.state,
      author: loginOf(issue.user),
      labels: labelNames(issue.labels),
      assignees: (issue.assignees ?? []).map((a) => a.login),
      createdAt: issue.created_at,
      url: issue.html_url,
      body: issue.body ?? "",
      isPullRequest: issue.pull_request !== undefined,
      comments: comments.map((c) => ({ author: loginOf(c.user), createdAt: c.created_at, body: c.body ?? "" })),
      totalComments: issue.comments,
    };
  },
});
