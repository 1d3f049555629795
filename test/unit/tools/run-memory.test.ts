// runTests' remembered results: one bridge-wide, none over the byte cap, released with the session
// that ran it and at the bridge's stop.
import { describe, expect, it } from "vitest";
import { RESULT_MAX_BYTES, RUN_MEMORY } from "../../../src/tools/commands/test-runners/run-memory.ts";
import type { TestRun } from "../../../src/tools/commands/test-runners/test-run.ts";

const run = (message = "boom"): TestRun => ({
  runner: "vitest",
  outcome: "fail",
  passed: 1,
  failed: 1,
  skipped: 0,
  durationMs: 5,
  failures: [{ test: "a > b", message }],
  command: "vitest run",
});

describe("remembered test runs", () => {
  it("keeps one result bridge-wide: a run of another session replaces it", () => {
    const memory = RUN_MEMORY.create();
    expect(memory.remember("k1", run("first"), "s1")).toBe(true);
    expect(memory.remember("k2", run("second"), "s2")).toBe(true);
    expect(memory.cached("k1")).toBeUndefined();
    expect(memory.cached("k2")?.run.failures[0]?.message).toBe("second");
    expect(memory.heldBytes()).toBe(new TextEncoder().encode(JSON.stringify(run("second"))).byteLength);
  });

  it("does not remember a result over the byte cap, and drops the one before", () => {
    const memory = RUN_MEMORY.create();
    memory.remember("small", run(), "s1");
    // Multi-byte text: the cap counts UTF-8 bytes, not characters.
    const huge = run("é".repeat(RESULT_MAX_BYTES / 2 + 10));
    expect(memory.remember("huge", huge, "s1")).toBe(false);
    expect(memory.cached("huge")).toBeUndefined();
    expect(memory.cached("small")).toBeUndefined();
    expect(memory.heldBytes()).toBe(0);
    // Just under the cap is kept.
    const fits = run("x".repeat(RESULT_MAX_BYTES - 400));
    expect(memory.remember("fits", fits, "s1")).toBe(true);
    expect(memory.heldBytes()).toBeLessThanOrEqual(RESULT_MAX_BYTES);
  });

  it("releases a session's result when it ends, and everything at the bridge's stop", () => {
    const memory = RUN_MEMORY.create();
    memory.remember("k", run(), "s1");
    memory.releaseSession("s2");
    expect(memory.cached("k")).toBeDefined();
    memory.releaseSession("s1");
    expect(memory.cached("k")).toBeUndefined();
    memory.remember("k", run(), "s1");
    memory.dispose();
    expect(memory.heldBytes()).toBe(0);
  });
});
