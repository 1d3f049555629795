// The latest test run the bridge saw (runTests publishes "test.run"), kept by the bridge for the
// prompts and resources that show failing tests. One object per bridge, owned by it.
import type { BridgeEvents } from "../capabilities/events/bridge-events.ts";
import type { RecentTestRun } from "./prompt-context.ts";

export class RecentTests {
  private last: RecentTestRun | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  record(run: BridgeEvents["test.run"]): void {
    this.last = {
      runner: run.runner,
      outcome: run.outcome,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      failures: run.failures,
      at: this.now(),
    };
    for (const listener of [...this.listeners]) listener();
  }

  latest(): RecentTestRun | undefined {
    return this.last;
  }

  /** Hears each new run until the returned function is called. */
  onRun(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
