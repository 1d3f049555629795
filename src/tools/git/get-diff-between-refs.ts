// getDiffBetweenRefs: what changed between two commits, as a unified diff or a stat; with
// mergeBase, what a pull request from `head` into `base` would show. The stat is git's numstat and
// totals (countArgs): whole paths in fewer characters than `git diff --stat`.
import * as v from "valibot";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { diffText } from "../../services/git/diff-text.ts";
import { revision } from "../../services/git/refs.ts";
import { defineTool } from "../platform/define-tool.ts";
import { ContextLinesInput, countArgs, PathsInput, RefInput, SummaryInput } from "./git-inputs.ts";

export default defineTool({
  name: "getDiffBetweenRefs",
  title: "Diff between refs",
  description:
    "Shows the diff between two branches, tags or commits (base to head), or with mergeBase only head's changes since it forked from base, as in a pull request.",
  searchHint: "git diff between branches against main compare refs commits base head pull request changes",
  input: v.strictObject({
    base: RefInput('Where to compare from: "main", "v1.2.0", a hash.'),
    head: v.optional(RefInput("Where to compare to (default HEAD)."), "HEAD"),
    mergeBase: v.optional(v.pipe(v.boolean(), v.description("Diff from the merge base (base...head).")), false),
    paths: PathsInput,
    stat: v.optional(v.pipe(v.boolean(), v.description("Per-file line counts only (added, deleted, path) and the totals.")), false),
    summary: SummaryInput,
    contextLines: ContextLinesInput,
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const range = `${revision(input.base, "base")}${input.mergeBase ? "..." : ".."}${revision(input.head, "head")}`;
    return diffText(ctx, {
      paths: input.paths,
      args: (paths) => ["diff", ...NO_DIFF_PROGRAMS, "--relative", ...formatArgs(input), "--end-of-options", range, "--", ...paths],
      empty: `No differences between ${input.base} and ${input.head}${input.paths ? " in those paths" : ""}.`,
      narrower: "pass paths, or stat: true for a summary",
      outside: { args: ["diff", "--end-of-options", range], what: "differences" },
    });
  },
});

function formatArgs(input: { stat: boolean; summary: boolean; contextLines?: number | undefined }): string[] {
  if (input.stat) return countArgs(input);
  return input.contextLines === undefined ? [] : [`-U${input.contextLines}`];
}
