// What runTests remembers between calls, one per bridge (a toolset state): the last result of each
// request for 30 s, and whether the last run failed, for the pass-after-fail event. A cached result
// belongs to the session that ran it and goes with it.
import { defineToolsetState, type ToolsetState } from "../../../capabilities/toolset-state.ts";
import type { TestRun } from "./test-run.ts";

const RESULT_CACHE_MS = 30_000;

interface RunMemory extends ToolsetState {
  cached(key: string): { run: TestRun; ageMs: number } | undefined;
  remember(key: string, run: TestRun, session: string): void;
  /** The outcome of the run before this one, then records this one. */
  swapOutcome(outcome: TestRun["outcome"]): TestRun["outcome"] | undefined;
}

export const RUN_MEMORY = defineToolsetState("commands.test-runs", createRunMemory);

function createRunMemory(): RunMemory {
  const results = new Map<string, { run: TestRun; at: number; session: string }>();
  let last: TestRun["outcome"] | undefined;
  return {
    cached(key) {
      const hit = results.get(key);
      if (hit === undefined) return undefined;
      const ageMs = Math.round(performance.now() - hit.at);
      return ageMs < RESULT_CACHE_MS ? { run: hit.run, ageMs } : undefined;
    },
    remember(key, run, session) {
      results.clear();
      results.set(key, { run, at: performance.now(), session });
    },
    swapOutcome(outcome) {
      const previous = last;
      last = outcome;
      return previous;
    },
    releaseSession(session) {
      for (const [key, hit] of results) if (hit.session === session) results.delete(key);
    },
    dispose() {
      results.clear();
      last = undefined;
    },
  };
}
