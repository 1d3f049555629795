// The progress ctx.exec sends while a command runs: what it holds of the output stays bounded
// (split from test/integration/capabilities/exec.test.ts, which runs the commands).
import { describe, expect, it } from "vitest";
import { outputProgress } from "../../../src/capabilities/exec/output-progress.ts";

describe("ctx.exec", () => {
  it("holds a bounded amount of a line that never ends, however much of it arrives", () => {
    const progress = outputProgress(() => {}, { intervalMs: 0 });
    const chunk = "y".repeat(64 * 1024);
    const before = process.memoryUsage().heapUsed;
    // 128 MiB of one line: kept whole, the unfinished line alone would grow the heap by that much.
    for (let i = 0; i < 2048; i++) progress.onOutput("stdout", chunk);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(32 * 1024 * 1024);
  });
});
