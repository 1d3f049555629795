// A checker run's time inside a call (src/services/diagnostics/call-budget.ts): its own cap while
// the call has time, less when the call's limit comes first, and a reason that names which.
import { describe, expect, it } from "vitest";
import { runBudget, timedOutReason } from "../../../../src/services/diagnostics/call-budget.ts";

describe("a checker run's budget", () => {
  it("is the checker's own cap without a deadline or with time to spare", () => {
    expect(runBudget({}, 90_000)).toEqual({ timeoutMs: 90_000, byCall: false });
    expect(runBudget({ deadline: Date.now() + 600_000 }, 90_000)).toEqual({ timeoutMs: 90_000, byCall: false });
    expect(timedOutReason({ timeoutMs: 90_000, byCall: false }, 90_000)).toBe("it did not finish in 90 s");
  });

  it("ends before the call's limit, leaving time to answer, and at once when none is left", () => {
    const near = runBudget({ deadline: Date.now() + 30_000 }, 90_000);
    expect(near.byCall).toBe(true);
    expect(near.timeoutMs).toBeGreaterThan(20_000);
    expect(near.timeoutMs).toBeLessThanOrEqual(25_000);
    expect(runBudget({ deadline: Date.now() - 1_000 }, 90_000)).toEqual({ timeoutMs: 1, byCall: true });
    expect(timedOutReason(near, 90_000)).toMatch(/call's time limit.*raise --timeout/);
  });
});
