// hotspots: the files that change most, as candidates for tests and refactoring.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "hotspots",
  title: "Find the code hotspots",
  description: "Finds the files that change most often lately, and what makes them churn.",
  arguments: [
    { name: "days", description: "How many days back (default 90)" },
    { name: "path", description: "Only under this path", complete: "path" },
  ],
  async build(args, ctx) {
    const days = Number(args.days);
    const a = new Assembly(ctx);
    await a.add("Hotspots", {
      tool: "getGitHotspots",
      args: { ...(Number.isInteger(days) && days > 0 ? { days } : {}), ...(args.path ? { paths: [args.path] } : {}), limit: 20 },
    });
    return a.render(`Look at the files that changed most. For the top five, find out why they churn (getGitLog on the file, readFile): many features meeting in one place, bug fixes, missing abstractions, tests that keep breaking.
Recommend where tests or a refactor would pay off, in order of value.`);
  },
});
