// githubGetPRDiff: a pull request's changes as GitHub computes them (a unified diff), capped at
// 256 KB: a larger one is cut with a note, and getDiffBetweenRefs can narrow it by path locally.
import * as v from "valibot";
import { github } from "../../services/github/gh-api.ts";
import { textBudget, textResult } from "../../services/git/text-output.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NumberInput, RepoInput } from "./github-inputs.ts";
import { pullNumber } from "./pull-number.ts";

const MAX_DIFF_BYTES = 256 * 1024;

export default defineTool({
  name: "githubGetPRDiff",
  title: "GitHub pull request diff",
  description: "Returns a GitHub pull request's diff (default: the current branch's) as unified text, cut at 256 KB with a note.",
  searchHint: "github pull request diff pr changes patch review code gh",
  input: v.strictObject({
    number: v.optional(NumberInput("PR number (default: this branch's).")),
    repo: RepoInput,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  requires: { probes: ["git"] },
  largeResult: true,
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const number = await pullNumber(ctx, gh, { given: input.number });
    const result = await gh.text(`${gh.repoPath}/pulls/${number}`, {
      accept: "application/vnd.github.diff",
      maxOutputBytes: textBudget(ctx, MAX_DIFF_BYTES),
    });
    return textResult(result, {
      empty: `Pull request #${number} changes nothing.`,
      narrower: "fetch its branch (gitFetch) and use getDiffBetweenRefs with paths for the rest",
    });
  },
});
