// githubCreateIssue: opens an issue in the workspace's GitHub repository (or `repo`).
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { IssueShape, repoOfUrl } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { BodyInput, NameListInput, RepoInput, TitleInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubCreateIssue",
  title: "Create GitHub issue",
  description:
    "Opens a GitHub issue in the workspace's repository (or repo) with a title, a Markdown body, labels and assignees; returns its number and URL.",
  searchHint: "github create issue new bug report open ticket gh",
  input: v.strictObject({
    title: TitleInput,
    body: v.optional(BodyInput("The issue's description.")),
    labels: NameListInput("Label names (they must exist in the repository)."),
    assignees: NameListInput("GitHub logins to assign."),
    repo: RepoInput,
  }),
  output: v.object({ number: v.number(), url: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const body = {
      title: input.title,
      body: input.body ?? "",
      ...(input.labels ? { labels: input.labels } : {}),
      ...(input.assignees ? { assignees: input.assignees } : {}),
    };
    const issue = await gh.json(IssueShape, "POST", `${gh.repoPath}/issues`, { body });
    ctx.events.publish("github.issue", { action: "created", repo: repoOfUrl(issue.html_url), number: issue.number, url: issue.html_url });
    return { number: issue.number, url: issue.html_url };
  },
});
