// What runTests remembers between calls, per bridge (keyed by its environment, never global): the
// last result of each request for 30 s, and whether the last run failed, for the pass-after-fail
// event.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { TestRun } from "./test-run.ts";

export const RESULT_CACHE_MS = 30_000;

export interface RunMemory {
  cached(key: string): { run: TestRun; ageMs: number } | undefined;
  remember(key: string, run: TestRun): void;
  /** The outcome of the run before this one, then records this one. */
  swapOutcome(outcome: TestRun["outcome"]): TestRun["outcome"] | undefined;
}

const memories = new WeakMap<object, RunMemory>();

export function runMemory(ctx: Pick<ToolContext, "fs">): RunMemory {
  let memory = memories.get(ctx.fs);
  if (memory === undefined) {
    memory = createRunMemory();
    memories.set(ctx.fs, memory);
  }
  return memory;
}

function createRunMemory(): RunMemory {
  const results = new Map<string, { run: TestRun; at: number }>();
  let last: TestRun["outcome"] | undefined;
  return {
    cached(key) {
      const hit = results.get(key);
      if (hit === undefined) return undefined;
      const ageMs = Math.round(performance.now() - hit.at);
      return ageMs < RESULT_CACHE_MS ? { run: hit.run, ageMs } : undefined;
    },
    remember(key, run) {
      results.clear();
      results.set(key, { run, at: performance.now() });
    },
    swapOutcome(outcome) {
      const previous = last;
      last = outcome;
      return previous;
    },
  };
}
