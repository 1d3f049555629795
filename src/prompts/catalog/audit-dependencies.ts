// audit-dependencies: the known vulnerabilities in the project's dependencies, and what to upgrade.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "audit-dependencies",
  title: "Audit the dependencies",
  description: "Audits the project's dependencies for known vulnerabilities and plans the upgrades.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Audit", { tool: "auditDependencies" });
    await a.add("Direct dependencies", { tool: "getDependencyTree", args: { depth: 1 } });
    return a.render(`From the audit below, list the vulnerable packages by severity, whether the project really reaches the vulnerable code (searchWorkspace for its imports), and the smallest upgrade that fixes each.
Flag upgrades that cross a major version and what they may break. Change nothing until the user agrees.`);
  },
});
