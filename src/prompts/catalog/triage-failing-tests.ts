// triage-failing-tests: the failures of the latest test run (run now when there is none), grouped
// by cause, with the failing tests' sources.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "triage-failing-tests",
  title: "Triage failing tests",
  description:
    "Triages the failing tests of the latest run (runs the tests when none ran yet): groups failures by cause and proposes fixes.",
  arguments: [{ name: "test", description: "Only this failing test", complete: "failingTest" }],
  async build(args, ctx) {
    const a = new Assembly(ctx);
    let run = ctx.recentTests();
    if (run === undefined) {
      a.note("no test run was recorded in this bridge yet, so runTests ran now.");
      await a.add("Test run", { tool: "runTests" });
      run = ctx.recentTests();
    }
    if (run !== undefined) {
      const failures = run.failures.filter((f) => args.test === undefined || f.test === args.test);
      const ago = Math.round((Date.now() - run.at) / 1000);
      a.note(`latest run (${run.runner}, ${ago} s ago): ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped.`);
      const listed = failures.map((f) => `${f.test}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ""})` : ""}\n${f.message}`);
      a.quote("Failures", listed.length === 0 ? "(no failure matches)" : listed.join("\n\n"), { source: "the latest runTests run" });
      const files = [...new Set(failures.map((f) => f.file).filter((f): f is string => f !== undefined))].slice(0, 3);
      for (const file of files) await a.add(`Test file ${file}`, { tool: "readFile", args: { path: file } });
    }
    return a.render(`Triage the failing tests below${args.test ? ` (only ${args.test})` : ""}. Group failures that share a cause; for each group say whether the test or the code is wrong, with the evidence (file:line).
Propose the smallest fix for each, apply it, and re-run only the affected tests with runTests (filter or file). Report what still fails.`);
  },
});
