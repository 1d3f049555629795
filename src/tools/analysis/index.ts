// The analysis toolset: questions about a codebase as a whole, answered from its language servers
// and the text around them: what a change breaks, what is unused, how it is built, its API, a test
// scaffold, and where a failing test's stack points in the source.
import { defineToolset } from "../platform/toolset.ts";
import detectUnusedCode from "./detect-unused-code.ts";
import generateApiDocumentation from "./generate-api-documentation.ts";
import generateTests from "./generate-tests.ts";
import getArchitectureContext from "./get-architecture-context.ts";
import getChangeImpact from "./get-change-impact.ts";
import testTraceToSource from "./test-trace-to-source.ts";

export const analysisToolset = defineToolset({
  name: "analysis",
  purpose: "change impact, dead code, architecture, API docs, test scaffolds, stack trace to source",
  // A first call may start language servers; rg checks their answers against the text.
  defaults: { timeoutMs: 60_000, requires: { optionalProbes: ["rg"] } },
  tools: [getChangeImpact, detectUnusedCode, getArchitectureContext, generateTests, generateApiDocumentation, testTraceToSource],
});
