// The parts of GitHub's REST answers the tools read (docs.github.com/rest: issues, pulls, actions).
// Loose objects: GitHub sends many more fields, and new ones must not break a call.
import * as v from "valibot";

const User = v.nullish(v.looseObject({ login: v.string() }));
const Label = v.union([v.string(), v.looseObject({ name: v.string() })]);

export const IssueShape = v.looseObject({
  number: v.number(),
  title: v.string(),
  state: v.string(),
  html_url: v.string(),
  user: User,
  labels: v.optional(v.array(Label), []),
  assignees: v.optional(v.nullable(v.array(v.looseObject({ login: v.string() }))), []),
  comments: v.optional(v.number(), 0),
  created_at: v.string(),
  updated_at: v.string(),
  body: v.nullish(v.string()),
  /** Present when the "issue" is a pull request (the issues API lists both). */
  pull_request: v.optional(v.unknown()),
});

export const CommentShape = v.looseObject({
  id: v.number(),
  html_url: v.string(),
  user: User,
  created_at: v.string(),
  body: v.nullish(v.string()),
});

export const PullShape = v.looseObject({
  number: v.number(),
  title: v.string(),
  state: v.string(),
  draft: v.optional(v.boolean(), false),
  merged: v.optional(v.boolean()),
  mergeable: v.nullish(v.boolean()),
  html_url: v.string(),
  user: User,
  head: v.looseObject({ ref: v.string(), sha: v.string() }),
  base: v.looseObject({ ref: v.string() }),
  body: v.nullish(v.string()),
  additions: v.optional(v.number()),
  deletions: v.optional(v.number()),
  changed_files: v.optional(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
});

export const ReviewShape = v.looseObject({ id: v.number(), state: v.string(), html_url: v.string() });

export const RepoShape = v.looseObject({ full_name: v.string(), default_branch: v.string() });

const RunShape = v.looseObject({
  id: v.number(),
  name: v.nullish(v.string()),
  display_title: v.optional(v.string()),
  status: v.nullish(v.string()),
  conclusion: v.nullish(v.string()),
  head_branch: v.nullish(v.string()),
  head_sha: v.string(),
  event: v.string(),
  created_at: v.string(),
  html_url: v.string(),
});

export const RunsShape = v.looseObject({ total_count: v.number(), workflow_runs: v.array(RunShape) });

export function loginOf(user: v.InferOutput<typeof User>): string {
  return user?.login ?? "ghost";
}

export function labelNames(labels: readonly v.InferOutput<typeof Label>[]): string[] {
  return labels.map((l) => (typeof l === "string" ? l : l.name));
}

/** "owner/name" of an html_url such as https://github.com/owner/name/issues/3. */
export function repoOfUrl(url: string): string {
  const parts = new URL(url).pathname.split("/").filter((p) => p !== "");
  return parts.slice(0, 2).join("/");
}
