// githubCommentIssue: adds a comment to an issue or a pull request (GitHub's conversation tab).
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { CommentShape, repoOfUrl } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { BodyInput, NumberInput, RepoInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubCommentIssue",
  title: "Comment on GitHub issue",
  description: "Adds a Markdown comment to a GitHub issue or pull request conversation; returns the comment's URL.",
  searchHint: "github comment issue pull request reply discussion note gh",
  input: v.strictObject({
    number: NumberInput("The issue or pull request number."),
    body: v.pipe(BodyInput("The comment."), v.regex(/\S/, "must not be blank")),
    repo: RepoInput,
  }),
  output: v.object({ id: v.number(), url: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const comment = await gh.json(CommentShape, "POST", `${gh.repoPath}/issues/${input.number}/comments`, { body: { body: input.body } });
    ctx.events.publish("github.issue", {
      action: "commented",
      repo: repoOfUrl(comment.html_url),
      number: input.number,
      url: comment.html_url,
    });
    return { id: comment.id, url: comment.html_url };
  },
});
