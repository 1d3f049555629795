// Every event the bridge publishes, by name: one map, so publishers and subscribers agree on each
// payload. The tool areas add theirs here ([git]: commits, pushes, pulls, checkouts, PRs; [exec]:
// test runs). Payloads are plain data: paths relative to the workspace root, no file contents.
export interface BridgeEvents {
  /** A tools/call finished: `outcome` is "ok" or the error code of its isError result. */
  "tool.called": { tool: string; session: string; durationMs: number; outcome: string };
  /**
   * runTests finished a run (cached answers are not runs). "pass-after-fail" is a pass whose
   * previous run failed: the seed's onTestRun filters are "any", "failure" and "pass-after-fail".
   */
  "test.run": { runner: string; outcome: "pass" | "fail" | "pass-after-fail"; passed: number; failed: number; skipped: number; durationMs: number };
}
