// Mocha's json reporter: stats and a list of failures with their error and stack.
import { isRecord } from "../../../services/diagnostics/project-facts.ts";
import { extractJsonObject, lineInStack, relativeTo, shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

/** The report found in mocha's stdout, among what the tests printed. */
export function parseMochaJson(stdout: string, root: string): ParsedRun {
  return readMochaReport(extractJsonObject(stdout), root);
}

export function readMochaReport(report: Record<string, unknown> | undefined, root: string): ParsedRun {
  const stats = report?.stats;
  if (report === undefined || !isRecord(stats)) return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  const failures: TestFailure[] = (Array.isArray(report.failures) ? report.failures.filter(isRecord) : []).map((f) => {
    const err = isRecord(f.err) ? f.err : {};
    const file = typeof f.file === "string" ? relativeTo(root, f.file) : undefined;
    const line = lineInStack(String(err.stack ?? ""), file);
    const failure: TestFailure = {
      test: String(f.fullTitle ?? f.title ?? "?"),
      message: shortMessage(String(err.message ?? err.stack ?? "failed")),
    };
    if (file !== undefined) failure.file = file;
    if (line !== undefined) failure.line = line;
    return failure;
  });
  const num = (key: string) => (typeof stats[key] === "number" ? stats[key] : 0);
  return { passed: num("passes"), failed: num("failures"), skipped: num("pending"), failures };
}
