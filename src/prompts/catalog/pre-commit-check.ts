// pre-commit-check: review before commit: staged diff, diagnostics, and the tests near the change.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "pre-commit-check",
  title: "Check before committing",
  description: "Checks staged changes before a commit: the diff, errors in the workspace, and which tests cover the changed files.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    const status = await a.add("Git status", { tool: "getGitStatus" });
    await a.add("Staged diff", { tool: "getGitDiff", args: { staged: true } });
    await a.add("Errors in the workspace", { tool: "getDiagnostics", args: { severity: "error" } });
    for (const file of stagedFiles(status.data).slice(0, 3)) {
      await a.add(`Tests related to ${file}`, { tool: "findRelatedTests", args: { filePath: file } });
    }
    return a.render(`Decide whether the staged changes are ready to commit. Check: no errors in the changed files, no debugging leftovers or secrets in the diff, tests exist and pass for what changed (run them with runTests, filtered to the related files), nothing half-done.
Answer "ready" or "not ready" first, then the reasons with file:line.`);
  },
});

function stagedFiles(data: unknown): string[] {
  const staged = typeof data === "object" && data !== null ? (data as { staged?: unknown }).staged : undefined;
  if (!Array.isArray(staged)) return [];
  return staged
    .map((s) => (typeof s === "object" && s !== null ? (s as { path?: unknown }).path : s))
    .filter((p): p is string => typeof p === "string");
}
