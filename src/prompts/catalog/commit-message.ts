// commit-message: a commit message for the staged changes, in the repository's own style.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "commit-message",
  title: "Write a commit message",
  description: "Writes a commit message for the staged changes in the style of the repository's recent commits.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Staged diff", { tool: "getGitDiff", args: { staged: true } });
    await a.add("Recent commits (for the style)", { tool: "getGitLog", args: { limit: 10 } });
    return a.render(`Write a commit message for the staged diff below, following the style of the recent commits (subject length, tense, prefixes).
The subject says what changed and why in one line; the body, when needed, explains the reasoning, not the diff. If nothing is staged, say so and suggest what to stage (getGitStatus).
Do not commit: gitCommit does that once the user agrees.`);
  },
});
