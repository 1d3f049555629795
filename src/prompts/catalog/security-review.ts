// security-review: the changes (or one file) read for vulnerabilities.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "security-review",
  title: "Security review",
  description:
    "Reviews the uncommitted changes, or one file, for vulnerabilities: injection, path traversal, secrets, unsafe input handling.",
  arguments: [{ name: "file", description: "Review this file instead of the working diff", complete: "path" }],
  async build(args, ctx) {
    const a = new Assembly(ctx);
    if (args.file) await a.add(args.file, { tool: "readFile", args: { path: args.file } });
    else await a.add("Working diff", { tool: "getGitDiff" });
    return a.render(`Review ${args.file ?? "the uncommitted changes"} for security flaws: injection (SQL, shell, template), path traversal, SSRF, unsafe deserialisation, missing authentication or authorisation checks, secrets in code, unsafe defaults, and input trusted without validation.
For each finding: file:line, the attack, its impact and the fix. Trace where input comes from (findReferences, getCallHierarchy) before rating a finding. Say "no findings" only after checking each category.`);
  },
});
