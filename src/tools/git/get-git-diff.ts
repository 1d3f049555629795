// getGitDiff: the workspace's uncommitted changes as a unified diff (or a stat), staged or not.
import * as v from "valibot";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { diffText } from "../../services/git/diff-text.ts";
import { defineTool } from "../platform/define-tool.ts";
import { ContextLinesInput, diffFormatArgs, PathsInput, StatInput } from "./git-inputs.ts";

export default defineTool({
  name: "getGitDiff",
  title: "Git diff",
  description:
    "Shows what changed and is not committed yet, as a unified diff: unstaged changes (working tree vs index) or staged ones (index vs HEAD); for some paths, or a stat.",
  searchHint: "git diff what changed uncommitted changes staged unstaged patch",
  input: v.strictObject({
    staged: v.optional(v.pipe(v.boolean(), v.description("Staged instead of unstaged changes.")), false),
    paths: PathsInput,
    stat: StatInput,
    contextLines: ContextLinesInput,
    maxChars: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.description("Cut the diff after this many characters."))),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const kind = input.staged ? "staged" : "unstaged";
    return diffText(ctx, {
      paths: input.paths,
      args: (paths) => [
        "diff",
        ...NO_DIFF_PROGRAMS,
        "--relative",
        ...(input.staged ? ["--cached"] : []),
        ...diffFormatArgs(input),
        "--",
        ...paths,
      ],
      maxChars: input.maxChars,
      empty: `No ${kind} changes${input.paths ? " in those paths" : ""}.${input.staged ? "" : " New files are not in a diff until staged: getGitStatus lists untracked files."}`,
      narrower: "pass paths, or stat: true for a summary",
      submodules: !input.staged,
      outside: { args: input.staged ? ["diff", "--cached"] : ["diff"], what: `${kind} changes` },
    });
  },
});
