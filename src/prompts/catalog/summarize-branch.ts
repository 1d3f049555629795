// summarize-branch: what a branch changed since it left its base, commit by commit and overall.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "summarize-branch",
  title: "Summarise recent changes on a branch",
  description: "Summarises what a branch changed since its base: the commits, the files and the overall effect.",
  arguments: [
    { name: "branch", description: "The branch (default: the current one)", complete: "branch" },
    { name: "base", description: "Where it started (default: main)", complete: "ref" },
  ],
  async build(args, ctx) {
    const head = args.branch ?? "HEAD";
    const base = args.base ?? "main";
    const a = new Assembly(ctx);
    await a.add(`Commits ${base}..${head}`, { tool: "getGitLog", args: { range: `${base}..${head}`, limit: 50 } });
    await a.add(`Files changed from ${base} to ${head}`, { tool: "getDiffBetweenRefs", args: { base, head, mergeBase: true, stat: true } });
    return a.render(`Summarise the changes on ${args.branch ?? "the current branch"} since ${base} for a teammate: the purpose, the main changes grouped by area, risky parts, and what is unfinished.
Commit messages are claims: check a surprising one against getDiffBetweenRefs or getCommitDetails before repeating it.`);
  },
});
