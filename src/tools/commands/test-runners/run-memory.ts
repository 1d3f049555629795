// What runTests remembers between calls, one per bridge (a toolset state): the last result of each
// request for 30 s, and whether the last run failed, for the pass-after-fail event. A cached result
// belongs to the session that ran it and goes with it. Bounded by count and by bytes: one result
// bridge-wide (a new run replaces the one before, whichever session ran it), and a result larger
// than RESULT_MAX_BYTES is not remembered at all (its caller still gets it; the next call runs the
// tests again). So what every session together holds here is at most one result of 1 MiB.
import { defineToolsetState, type ToolsetState } from "../../../capabilities/toolset-state.ts";
import type { TestRun } from "./test-run.ts";

const RESULT_CACHE_MS = 30_000;
/** The largest result remembered, as UTF-8 bytes of its JSON (failure messages and output are most of it). */
export const RESULT_MAX_BYTES = 1024 * 1024;

interface RunMemory extends ToolsetState {
  cached(key: string): { run: TestRun; ageMs: number } | undefined;
  /** Remembers `run` in place of what was remembered before; false when it is too large to keep. */
  remember(key: string, run: TestRun, session: string): boolean;
  /** What is remembered now, in bytes. */
  heldBytes(): number;
  /** The outcome of the run before this one, then records this one. */
  swapOutcome(outcome: TestRun["outcome"]): TestRun["outcome"] | undefined;
}

export const RUN_MEMORY = defineToolsetState("commands.test-runs", createRunMemory);

function createRunMemory(): RunMemory {
  const results = new Map<string, { run: TestRun; at: number; session: string; bytes: number }>();
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
      const bytes = new TextEncoder().encode(JSON.stringify(run)).byteLength;
      if (bytes > RESULT_MAX_BYTES) return false;
      results.set(key, { run, at: performance.now(), session, bytes });
      return true;
    },
    heldBytes() {
      let total = 0;
      for (const hit of results.values()) total += hit.bytes;
      return total;
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
