// runTests: runs the workspace's test runner with its machine-readable reporter and answers with
// parsed results (counts and failures with file and line), not a wall of output. The runner is the
// one the workspace declares (src/tools/commands/test-runners/detect-runner.ts) and runs through
// ctx.exec.runToolchain with a fixed argv: the caller chooses only which tests (filter, file).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { outputProgress } from "../../capabilities/exec/output-progress.ts";
import { checkedFilter } from "../../capabilities/exec/toolchain.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { detectRunners } from "./test-runners/detect-runner.ts";
import { RUN_MEMORY } from "./test-runners/run-memory.ts";
import { RUNNERS, RUNNER_NAMES, type RunnerName, type RunRequest, type TestRunner } from "./test-runners/runners.ts";
import { relativeFrames } from "./test-runners/stack-frames.ts";
import { TestRun } from "./test-runners/test-run.ts";

const MAX_FAILURES = 50;
const DEFAULT_TEST_TIMEOUT_MS = 300_000;
const MAX_TEST_TIMEOUT_MS = 600_000;
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

export default defineTool({
  name: "runTests",
  title: "Run tests",
  description:
    "Runs the workspace's tests (vitest, jest, mocha, node --test, pytest, go test, cargo test), all or filtered, and returns passed/failed/skipped with each failure's file, line and message.",
  searchHint: "run tests test runner vitest jest mocha pytest go test cargo test failures",
  input: v.strictObject({
    filter: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(500),
        v.description("Test name pattern (vitest/jest -t, pytest -k, go -run, cargo filter)."),
      ),
    ),
    file: v.optional(
      v.pipe(
        v.string(),
        v.description("One test file or directory, relative to the workspace root (go: that file's tests; cargo: its target)."),
      ),
    ),
    runner: v.optional(
      v.pipe(v.picklist(RUNNER_NAMES), v.description('Runner to use instead of the detected one ("node" is node --test).')),
    ),
    rerun: v.optional(v.pipe(v.boolean(), v.description("Run again even if the same request ran in the last 30 s."))),
    timeoutMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1000),
        v.maxValue(MAX_TEST_TIMEOUT_MS),
        v.description("Stop the run after this long (default 300000)."),
      ),
    ),
  }),
  output: TestRun,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  timeoutMs: MAX_TEST_TIMEOUT_MS,
  async handler(input, ctx) {
    const runner = await chooseRunner(ctx, input.runner);
    const request: RunRequest = {};
    if (input.filter !== undefined) request.filter = checkedFilter(input.filter, "test filter");
    if (input.file !== undefined) request.file = ctx.fs.relative(await ctx.fs.resolve(input.file)) || ".";
    // go runs a package, not a file: that file's tests are named instead, unless a filter was given.
    if (runner.name === "go" && request.file?.endsWith("_test.go") === true && request.filter === undefined) {
      request.names = goTestNames(await ctx.fs.readText(request.file, { maxBytes: MAX_REPORT_BYTES }));
    }
    const memory = ctx.state(RUN_MEMORY);
    const key = JSON.stringify([runner.name, request.filter, request.file, request.names]);
    const hit = input.rerun === true ? undefined : memory.cached(key);
    if (hit !== undefined) return { ...hit.run, cachedAgoMs: hit.ageMs };
    const run = await runOnce(ctx, runner, request, input.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS);
    memory.remember(key, run, ctx.session);
    const previous = memory.swapOutcome(run.outcome);
    const outcome = run.outcome !== "pass" ? "fail" : previous === "fail" || previous === "error" ? "pass-after-fail" : "pass";
    ctx.events.publish("test.run", {
      runner: run.runner,
      outcome,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      durationMs: run.durationMs,
    });
    return run;
  },
});

async function chooseRunner(ctx: ToolContext, asked: RunnerName | undefined): Promise<TestRunner> {
  if (asked !== undefined) return RUNNERS[asked];
  const detected = await detectRunners(ctx);
  const first = detected[0];
  if (first === undefined) {
    throw new ToolError(
      "not_detected",
      "No test runner is declared in the workspace root (no package.json test script or runner dependency, pytest config, go.mod or Cargo.toml)",
      {
        suggestion: `Pass runner (${RUNNER_NAMES.join(", ")}), or run the project's test command with runCommand.`,
      },
    );
  }
  return RUNNERS[first.runner];
}

async function runOnce(ctx: ToolContext, runner: TestRunner, request: RunRequest, timeoutMs: number): Promise<TestRun> {
  const progress = outputProgress((count, message) => ctx.progress(count, { message }));
  const result = await ctx.exec.runToolchain(runner.program, {
    args: runner.writesReport ? (report) => runner.args(request, report) : runner.args(request),
    timeoutMs,
    maxOutputBytes: MAX_REPORT_BYTES,
    // Colour codes would end up in the failure messages.
    env: { NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" },
    onOutput: progress.onOutput,
  });
  const parsed = await runner.parse(result, ctx.fs.root);
  const failed = result.timedOut || parsed.unreadable === true || (parsed.failed === 0 && result.exitCode !== 0);
  const run: TestRun = {
    runner: runner.name === "node" ? "node --test" : runner.name,
    outcome: failed && parsed.failed === 0 ? "error" : parsed.failed > 0 ? "fail" : "pass",
    passed: parsed.passed,
    failed: parsed.failed,
    skipped: parsed.skipped,
    durationMs: result.durationMs,
    failures: parsed.failures.slice(0, MAX_FAILURES).map((f) => ({ ...f, message: relativeFrames(f.message, ctx.fs.root) })),
    command: [runner.program, ...runner.args(request)].join(" "),
  };
  if (parsed.failures.length > MAX_FAILURES) run.failuresOmitted = parsed.failures.length - MAX_FAILURES;
  if (run.outcome === "error")
    run.output = outputTail(result.timedOut ? `(stopped after the ${timeoutMs} ms timeout)\n` : "", result.stdout, result.stderr);
  return run;
}

function outputTail(prefix: string, stdout: string, stderr: string): string {
  const lines = `${stdout}\n${stderr}`
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  return prefix + lines.slice(-40).join("\n").slice(-4000);
}

/** The Test, Example and Fuzz functions a go test file declares: what `go test -run` picks from. */
function goTestNames(text: string): string[] {
  return [...text.matchAll(/^func\s+((?:Test|Example|Fuzz)\w*)\s*\(/gm)].map((m) => m[1] ?? "").filter((n) => n !== "");
}
