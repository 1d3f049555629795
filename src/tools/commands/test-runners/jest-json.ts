// Jest's --json report, which vitest's json reporter also writes (the same shape, by design):
// testResults per file, assertionResults per test with status, failureMessages and, when the
// runner knows it, the test's location.
import { isRecord } from "../../../services/diagnostics/project-facts.ts";
import { extractJsonObject, lineInStack, relativeTo, shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

/** The report found in a runner's stdout, among what the tests printed. */
export function parseJestJson(stdout: string, root: string): ParsedRun {
  return readJestReport(extractJsonObject(stdout), root);
}

export function readJestReport(report: Record<string, unknown> | undefined, root: string): ParsedRun {
  if (report === undefined || !Array.isArray(report.testResults))
    return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  const failures: TestFailure[] = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of report.testResults) {
    if (!isRecord(file)) continue;
    const path = typeof file.name === "string" ? relativeTo(root, file.name) : undefined;
    const tests = Array.isArray(file.assertionResults) ? file.assertionResults.filter(isRecord) : [];
    for (const test of tests) {
      const status = String(test.status);
      if (status === "passed") passed++;
      else if (status === "failed") {
        failed++;
        failures.push(failureOf(test, path));
      } else skipped++;
    }
    // A file that failed to load (a syntax error, a missing import) has no tests, only a message.
    if (tests.length === 0 && file.status === "failed") {
      failed++;
      failures.push({
        test: `(file ${path ?? "?"})`,
        ...(path === undefined ? {} : { file: path }),
        message: shortMessage(String(file.message ?? "the test file failed to run")),
      });
    }
  }
  return { passed, failed, skipped, failures };
}

function failureOf(test: Record<string, unknown>, file: string | undefined): TestFailure {
  const messages = Array.isArray(test.failureMessages) ? test.failureMessages.map(String) : [];
  const stack = messages.join("\n");
  const location = isRecord(test.location) && typeof test.location.line === "number" ? test.location.line : undefined;
  const line = lineInStack(stack, file) ?? location;
  const failure: TestFailure = { test: String(test.fullName ?? test.title ?? "?"), message: shortMessage(stack || "failed") };
  if (file !== undefined) failure.file = file;
  if (line !== undefined) failure.line = line;
  return failure;
}
