// Every prompt the bridge serves, one file each in catalog/ (Claude Code shows each as the slash
// command /mcp__<server>__<name>).
import addressAiComments from "./catalog/address-ai-comments.ts";
import auditDependencies from "./catalog/audit-dependencies.ts";
import commitMessage from "./catalog/commit-message.ts";
import debugError from "./catalog/debug-error.ts";
import explainFile from "./catalog/explain-file.ts";
import explainSymbol from "./catalog/explain-symbol.ts";
import findDeadCode from "./catalog/find-dead-code.ts";
import fixAllDiagnostics from "./catalog/fix-all-diagnostics.ts";
import fixFileErrors from "./catalog/fix-file-errors.ts";
import handoff from "./catalog/handoff.ts";
import hotspots from "./catalog/hotspots.ts";
import improveCoverage from "./catalog/improve-coverage.ts";
import investigateHistory from "./catalog/investigate-history.ts";
import onboardProject from "./catalog/onboard-project.ts";
import planRefactor from "./catalog/plan-refactor.ts";
import prDescription from "./catalog/pr-description.ts";
import preCommitCheck from "./catalog/pre-commit-check.ts";
import resolveMergeConflict from "./catalog/resolve-merge-conflict.ts";
import reviewCommit from "./catalog/review-commit.ts";
import reviewDiff from "./catalog/review-diff.ts";
import securityReview from "./catalog/security-review.ts";
import summarizeBranch from "./catalog/summarize-branch.ts";
import triageFailingTests from "./catalog/triage-failing-tests.ts";
import writeTests from "./catalog/write-tests.ts";
import type { Prompt } from "./define-prompt.ts";

export const PROMPTS: readonly Prompt[] = [
  addressAiComments,
  auditDependencies,
  commitMessage,
  debugError,
  explainFile,
  explainSymbol,
  findDeadCode,
  fixAllDiagnostics,
  fixFileErrors,
  handoff,
  hotspots,
  improveCoverage,
  investigateHistory,
  onboardProject,
  planRefactor,
  prDescription,
  preCommitCheck,
  resolveMergeConflict,
  reviewCommit,
  reviewDiff,
  securityReview,
  summarizeBranch,
  triageFailingTests,
  writeTests,
];
