// pr-description: a pull-request description from the commits and the diff against the base.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "pr-description",
  title: "Prepare a PR description",
  description: "Drafts a pull-request title and description from the branch's commits and its diff against the base.",
  arguments: [{ name: "base", description: "The branch the PR targets (default: main)", complete: "ref" }],
  async build(args, ctx) {
    const base = args.base ?? "main";
    const a = new Assembly(ctx);
    await a.add(`Commits since ${base}`, { tool: "getGitLog", args: { range: `${base}..HEAD`, limit: 50 } });
    await a.add(`Diff against ${base}`, { tool: "getDiffBetweenRefs", args: { base, mergeBase: true } });
    await a.add("Uncommitted changes (not part of the PR)", { tool: "getGitStatus" });
    return a.render(`Write a pull-request title (under 70 characters) and description for the changes from ${base} to HEAD:
a summary of why, what changed (grouped), how it was tested, and risks or follow-ups. Base every statement on the diff; if uncommitted changes exist, warn that they are not in the PR.
Do not create the PR; githubCreatePR can do that once the user agrees.`);
  },
});
