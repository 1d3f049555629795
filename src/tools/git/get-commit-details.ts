// getCommitDetails: one commit as `git show` prints it: header (author and date; the committer on
// request), full message, per-file line counts (countArgs) and the patch, each file's patch cut to a
// budget (maxDiffLines) that says how to see the rest.
import * as v from "valibot";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { diffText } from "../../services/git/diff-text.ts";
import { cutPatches } from "../../lib/text/diff-budget.ts";
import { revision } from "../../services/git/refs.ts";
import { defineTool } from "../platform/define-tool.ts";
import { countArgs, LimitInput, PathsInput, RefInput, SummaryInput } from "./git-inputs.ts";

export default defineTool({
  name: "getCommitDetails",
  title: "Commit details",
  description:
    "Shows one commit: hash, author, date, full message, the files it changed with line counts, and its patch (optionally only for some paths).",
  searchHint: "git show commit details what changed in a commit message author files patch sha",
  input: v.strictObject({
    ref: v.optional(RefInput('The commit: a hash, branch, tag or "HEAD~2" (default HEAD).'), "HEAD"),
    patch: v.optional(v.pipe(v.boolean(), v.description("Include the patch after the file list (default true).")), true),
    paths: PathsInput,
    committer: v.optional(v.pipe(v.boolean(), v.description("Also the committer and both dates (git's fuller format).")), false),
    summary: SummaryInput,
    maxDiffLines: LimitInput("Patch lines shown per file", { fallback: 200, max: 20000 }),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const ref = revision(input.ref);
    const text = await diffText(ctx, {
      paths: input.paths,
      args: (paths) => [
        "show",
        ...NO_DIFF_PROGRAMS,
        "--relative",
        input.committer ? "--format=fuller" : "--format=medium",
        "--date=iso",
        ...countArgs(input),
        ...(input.patch ? ["--patch"] : []),
        "--end-of-options",
        ref,
        "--",
        ...paths,
      ],
      empty: `Nothing to show for ${input.ref}.`,
      narrower: "pass paths, or patch: false for the header and file list",
      outside: { args: ["show", "--format=", "--end-of-options", ref], what: `changes in ${input.ref}` },
    });
    return cutPatches(text, {
      maxLines: input.maxDiffLines,
      sectionStart: /^diff --git /,
      more: (header, left) =>
        `[${left} more patch lines of ${header.replace(/^diff --git a\/(.*) b\/.*$/, "$1")}; maxDiffLines (now ${input.maxDiffLines}) shows more]`,
    }).text;
  },
});
