// githubPostPRReview: posts a review on a pull request: a summary, optionally with comments on
// lines of the diff. Approving is not offered: an approval is a person's decision.
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { repoOfUrl, ReviewShape } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { BodyInput, NumberInput, RepoInput } from "./github-inputs.ts";

const LineComment = v.strictObject({
  path: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(1000),
    v.regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\x00-\x1f\x7f]+$/, "a repository-relative path"),
    v.description("File path in the repository, as in the diff."),
  ),
  line: v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Line in the new version (added or context line).")),
  body: v.pipe(BodyInput("The comment."), v.regex(/\S/, "must not be blank")),
});

export default defineTool({
  name: "githubPostPRReview",
  title: "Review GitHub pull request",
  description:
    "Posts a review on a GitHub pull request: COMMENT or REQUEST_CHANGES with a summary, optionally with comments on lines of the diff. Never approves.",
  searchHint: "github review pull request pr comment request changes code review feedback gh",
  input: v.strictObject({
    number: NumberInput("The pull request number."),
    event: v.pipe(
      v.picklist(["COMMENT", "REQUEST_CHANGES"]),
      v.description("COMMENT, or REQUEST_CHANGES to block merging until addressed."),
    ),
    body: v.pipe(BodyInput("The review's summary."), v.regex(/\S/, "must not be blank")),
    comments: v.optional(v.pipe(v.array(LineComment), v.maxLength(100), v.description("Comments on lines of the diff."))),
    repo: RepoInput,
  }),
  output: v.object({ id: v.number(), state: v.string(), url: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const comments = (input.comments ?? []).map((c) => ({ path: c.path, line: c.line, side: "RIGHT", body: c.body }));
    const review = await gh.json(ReviewShape, "POST", `${gh.repoPath}/pulls/${input.number}/reviews`, {
      body: { event: input.event, body: input.body, ...(comments.length > 0 ? { comments } : {}) },
    });
    ctx.events.publish("github.pullRequest", {
      action: "reviewed",
      repo: repoOfUrl(review.html_url),
      number: input.number,
      url: review.html_url,
    });
    return { id: review.id, state: review.state, url: review.html_url };
  },
});
