// The orchestrator's concurrency limit (--automation-concurrency): with a driver whose runs the test
// ends by hand, exactly that many tasks run at once, the next starts as soon as one finishes.
import { describe, expect, it } from "vitest";
import type { ClaudeDriver, ClaudeRunResult } from "../../../../src/capabilities/claude/claude-driver.ts";
import { ClaudeOrchestrator } from "../../../../src/services/claude-tasks/orchestrator.ts";

function heldDriver() {
  const held: (() => void)[] = [];
  const driver: ClaudeDriver = {
    binary: "claude",
    run: () =>
      new Promise<ClaudeRunResult>((resolve) =>
        held.push(() => resolve({ outcome: "done", exitCode: 0, durationMs: 1, result: "ok", stream: { unparsed: 0, oversized: 0 } })),
      ),
  };
  return { driver, held };
}

describe("the orchestrator's concurrency", () => {
  it("runs as many tasks at once as it is given, and starts the next when one ends", async () => {
    const { driver, held } = heldDriver();
    const tasks = new ClaudeOrchestrator({ driver, cwd: "/ws", concurrency: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) => tasks.submit({ prompt: `task ${n}`, timeoutMs: 60_000, trigger: "tool" }).id);
    const statuses = () => ids.map((id) => tasks.get(id)?.status);
    expect(statuses()).toEqual(["running", "running", "running", "pending", "pending"]);
    held.shift()?.();
    await tasks.settled(ids[0] ?? "", AbortSignal.timeout(5_000));
    expect(statuses()).toEqual(["done", "running", "running", "running", "pending"]);
    for (const release of held.splice(0)) release();
    await tasks.settled(ids[3] ?? "", AbortSignal.timeout(5_000));
    expect(statuses().slice(0, 4)).toEqual(["done", "done", "done", "done"]);
    expect(statuses()[4]).toBe("running");
    held.shift()?.();
    await tasks.stop();
  });
});
