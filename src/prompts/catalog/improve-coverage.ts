// improve-coverage: the uncovered lines of a file, with its tests, to raise coverage where it matters.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "improve-coverage",
  title: "Improve test coverage",
  description: "Finds what the tests do not cover (from the last coverage report) and writes tests for the parts that matter.",
  arguments: [{ name: "path", description: "Only files under this path", complete: "path" }],
  async build(args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Coverage", { tool: "getCodeCoverage", args: args.path ? { path: args.path } : {} });
    if (args.path) await a.add(`Tests related to ${args.path}`, { tool: "findRelatedTests", args: { filePath: args.path } });
    return a.render(`Use the coverage report below to raise coverage where it matters: error paths and branches with logic, not trivial getters. If there is no report, say how to produce one (the project's coverage command via runCommand).
Write the tests in the project's style, run them with runTests, and report the coverage change if you can measure it.`);
  },
});
