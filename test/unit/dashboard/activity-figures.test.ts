// Percentiles, latency tables, co-occurrence and the health score, from known inputs.
import { describe, expect, it } from "vitest";
import type { ToolCallEntry } from "../../../src/capabilities/activity/activity-entry.ts";
import { coOccurrence } from "../../../src/services/activity/co-occurrence.ts";
import { healthScore } from "../../../src/services/activity/health-score.ts";
import { latencyOverTime, latencyTable, percentile } from "../../../src/services/activity/latency.ts";
import { analyticsReport, sessionUsage } from "../../../src/services/activity/usage-report.ts";

let seq = 0;
function call(
  tool: string,
  opts: { durationMs?: number; outcome?: string; session?: string; at?: number; toolset?: string } = {},
): ToolCallEntry {
  seq += 1;
  return {
    kind: "call",
    seq,
    at: opts.at ?? seq * 1000,
    tool,
    toolset: opts.toolset,
    session: opts.session ?? "s1",
    client: "claude-code",
    durationMs: opts.durationMs ?? 10,
    outcome: opts.outcome ?? "ok",
    resultChars: 100,
  };
}

describe("percentile (nearest rank)", () => {
  it("picks a measured value", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe("latency tables", () => {
  it("groups per tool and per toolset, the most called first", () => {
    const calls = [
      ...Array.from({ length: 20 }, (_, i) => call("readFile", { durationMs: i + 1, toolset: "workspace" })),
      call("getGitStatus", { durationMs: 300, outcome: "git_failed", toolset: "git" }),
    ];
    const [read, git] = latencyTable(calls, "tool");
    expect(read).toEqual({ name: "readFile", calls: 20, errors: 0, p50Ms: 10, p95Ms: 19, p99Ms: 20, maxMs: 20 });
    expect(git).toMatchObject({ name: "getGitStatus", errors: 1, p99Ms: 300 });
    expect(latencyTable(calls, "toolset").map((r) => r.name)).toEqual(["workspace", "git"]);
  });

  it("buckets p95 per minute", () => {
    const now = 10 * 60_000 + 30_000;
    const points = latencyOverTime([call("a", { at: now - 1000, durationMs: 40 }), call("a", { at: now - 61_000, durationMs: 7 })], {
      now,
      minutes: 3,
    });
    expect(points.map((p) => [p.calls, p.p95Ms])).toEqual([
      [0, null],
      [1, 7],
      [1, 40],
    ]);
  });
});

describe("co-occurrence and usage", () => {
  it("counts tools called one after the other in a session, in either order", () => {
    const calls = [
      call("findFiles", { session: "a" }),
      call("readFile", { session: "a" }),
      call("findFiles", { session: "b" }),
      call("readFile", { session: "b" }),
      call("readFile", { session: "a" }),
      call("getGitStatus", { session: "c" }),
    ];
    expect(coOccurrence(calls)).toEqual([{ tools: ["findFiles", "readFile"], count: 2 }]);
  });

  it("reports analytics and one session's usage", () => {
    const calls = [
      call("readFile", { session: "x" }),
      call("readFile", { session: "x", outcome: "file_not_found" }),
      call("findFiles", { session: "y" }),
    ];
    const report = analyticsReport(calls);
    expect(report).toMatchObject({ calls: 3, errors: 1, sessions: 2 });
    expect(report.errorCodes).toEqual([{ code: "file_not_found", count: 1, tools: ["readFile"] }]);
    expect(sessionUsage(calls, "x")).toMatchObject({
      calls: 2,
      errors: 1,
      resultChars: 200,
      tools: [{ tool: "readFile", calls: 2, errors: 1 }],
    });
  });
});

describe("health score", () => {
  const calm = { breaker: "closed" as const, recentCalls: 100, recentErrors: 0, p95Ms: 200, rateLimited: 0, lspCrashes: 0 };

  it("is 100 when nothing is wrong, each signal with no penalty", () => {
    const health = healthScore(calm);
    expect(health.score).toBe(100);
    expect(health.status).toBe("healthy");
    expect(health.signals.every((s) => s.penalty === 0)).toBe(true);
  });

  it("takes each signal's share off, capped, and says why", () => {
    const health = healthScore({ breaker: "open", recentCalls: 10, recentErrors: 5, p95Ms: 3000, rateLimited: 2, lspCrashes: 3 });
    const penalty = Object.fromEntries(health.signals.map((s) => [s.name, s.penalty]));
    expect(penalty).toEqual({
      "extension breaker": 30,
      "error rate": 30,
      "p95 latency": 10,
      "rate limits": 4,
      "language server crashes": 10,
    });
    expect(health.score).toBe(16);
    expect(health.status).toBe("unhealthy");
    expect(health.signals.find((s) => s.name === "error rate")?.value).toBe("5 of 10 calls failed (50 %)");
  });

  it("ignores the error rate of fewer than 5 calls", () => {
    expect(healthScore({ ...calm, recentCalls: 2, recentErrors: 2 }).score).toBe(100);
    expect(healthScore({ ...calm, breaker: "half-open" }).score).toBe(85);
  });
});
