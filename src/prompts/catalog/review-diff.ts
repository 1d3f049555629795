// review-diff: a code review of the uncommitted changes, with the status, the diff and what the
// checkers already say about the workspace.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "review-diff",
  title: "Review the working diff",
  description:
    "Reviews the uncommitted changes (or only the staged ones): bugs, risks, missing tests, with the diff and current diagnostics attached.",
  arguments: [
    { name: "staged", description: '"yes" to review only what is staged' },
    { name: "path", description: "Only changes under this path", complete: "path" },
  ],
  async build(args, ctx) {
    const a = new Assembly(ctx);
    const paths = args.path ? { paths: [args.path] } : {};
    await a.add("Git status", { tool: "getGitStatus" });
    await a.add(args.staged === "yes" ? "Staged diff" : "Working diff", {
      tool: "getGitDiff",
      args: { ...(args.staged === "yes" ? { staged: true } : {}), ...paths },
    });
    await a.add("Diagnostics (warnings and errors)", {
      tool: "getDiagnostics",
      args: { severity: "warning", ...(args.path ? { file: args.path } : {}) },
    });
    return a.render(`Review the ${args.staged === "yes" ? "staged" : "uncommitted"} changes below as a careful senior reviewer.
For each finding give file:line, what is wrong, why it matters and the fix; order by severity (bugs, security, data loss, then design and style).
Say which changes lack tests. If the diff is empty, say so and stop. Use the bridge's tools (readFile, findReferences, getDiagnostics) to check a suspicion before you report it.`);
  },
});
