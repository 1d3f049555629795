// A pull request as githubListPRs and githubViewPR return it: what a reviewer looks at first.
import * as v from "valibot";
import { loginOf, type PullShape } from "../../services/github/rest-shapes.ts";

export const PullSummary = v.object({
  number: v.number(),
  title: v.string(),
  state: v.pipe(v.string(), v.description('"open", "closed" or "merged".')),
  draft: v.boolean(),
  author: v.string(),
  head: v.pipe(v.string(), v.description("Branch the changes come from.")),
  base: v.pipe(v.string(), v.description("Branch they would merge into.")),
  updatedAt: v.string(),
});

export function pullSummary(pr: v.InferOutput<typeof PullShape>): v.InferOutput<typeof PullSummary> {
  return {
    number: pr.number,
    title: pr.title,
    state: pr.merged === true ? "merged" : pr.state,
    draft: pr.draft,
    author: loginOf(pr.user),
    head: pr.head.ref,
    base: pr.base.ref,
    updatedAt: pr.updated_at,
  };
}
