// fix-all-diagnostics: the workspace's errors and warnings, worked through file by file.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "fix-all-diagnostics",
  title: "Fix the workspace's errors and warnings",
  description: "Works through the errors (and optionally warnings) of the whole workspace, file by file.",
  arguments: [{ name: "severity", description: '"error" (default) or "warning"' }],
  async build(args, ctx) {
    const severity = args.severity === "warning" ? "warning" : "error";
    const a = new Assembly(ctx);
    await a.add(`Diagnostics (${severity} and worse)`, { tool: "getDiagnostics", args: { severity } });
    return a.render(`Fix the ${severity === "error" ? "errors" : "errors and warnings"} below, one file at a time, starting with the file whose errors others depend on (type errors in shared modules first).
For lint findings, fixAllLintErrors applies the linter's own fixes; for the rest, edit and re-check with getDiagnostics on that file. Never silence a finding (no ts-ignore, no disabling rules) without saying why. Report what is left.`);
  },
});
