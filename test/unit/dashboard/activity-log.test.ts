// The activity log's ring, its cumulative totals, what it refuses to keep, and its long poll.
import { describe, expect, it } from "vitest";
import { cleanDetail } from "../../../src/capabilities/activity/activity-entry.ts";
import { ActivityLog } from "../../../src/capabilities/activity/activity-log.ts";
import { RingBuffer } from "../../../src/capabilities/activity/ring-buffer.ts";

describe("RingBuffer", () => {
  it("keeps the newest items, oldest first, and returns the one pushed out", () => {
    const ring = new RingBuffer<number>(3);
    expect([1, 2, 3].map((n) => ring.push(n))).toEqual([undefined, undefined, undefined]);
    expect(ring.push(4)).toBe(1);
    expect(ring.push(5)).toBe(2);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    expect(ring.size).toBe(3);
    ring.clear();
    expect(ring.toArray()).toEqual([]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});

describe("ActivityLog", () => {
  const call = (tool: string, durationMs: number, outcome = "ok") => ({ tool, session: "s1", durationMs, outcome });

  it("keeps 500 entries but counts every call in its totals", () => {
    const log = new ActivityLog({ toolsetOf: (t) => (t === "readFile" ? "workspace" : undefined) });
    for (let i = 0; i < 620; i++) log.recordCall(call("readFile", i % 40, i % 10 === 0 ? "file_not_found" : "ok"));
    expect(log.entries()).toHaveLength(500);
    expect(log.entries()[0]?.seq).toBe(121);
    expect(log.lastSeq).toBe(620);
    const totals = log.totals().get("readFile");
    expect(totals?.calls).toBe(620);
    expect(totals?.errors).toBe(62);
    // 5 ms bucket: durations 0..5 of every 40.
    expect(totals?.buckets[0]).toBe(Math.floor(620 / 40) * 6 + Math.min(6, 620 % 40));
    expect(log.calls()[0]?.toolset).toBe("workspace");
  });

  it("keeps short scalar details only, never fields named like secrets or content", () => {
    expect(
      cleanDetail({
        hook: "onGitCommit",
        token: "abc",
        authToken: "x",
        content: "file text",
        fileText: "x",
        nested: { a: 1 },
        long: "y".repeat(500),
        n: 3,
        ok: true,
        none: null,
      }),
    ).toEqual({ hook: "onGitCommit", long: `${"y".repeat(200)}…`, n: 3, ok: true, none: null });
  });

  it("tells listeners, and a throwing listener is dropped without failing the append", () => {
    const log = new ActivityLog();
    const seen: string[] = [];
    log.subscribe(() => {
      throw new Error("broken");
    });
    log.subscribe((e) => seen.push(e.kind === "event" ? e.event : e.tool));
    log.append({ source: "automation", event: "hook.skipped", detail: { hook: "onGitCommit" } });
    log.recordCall(call("readFile", 3));
    expect(seen).toEqual(["hook.skipped", "readFile"]);
    expect(log.eventTotals().get("hook.skipped")).toBe(1);
  });

  it("answers next() at once with what is there, else with the first new entry, else [] on abort", async () => {
    const log = new ActivityLog();
    log.recordCall(call("a", 1));
    const abort = new AbortController();
    expect((await log.next(0, { signal: abort.signal, timeoutMs: 10_000 })).map((e) => e.seq)).toEqual([1]);
    const waiting = log.next(1, { signal: abort.signal, timeoutMs: 10_000 });
    log.recordCall(call("b", 1));
    expect((await waiting).map((e) => e.seq)).toEqual([2]);
    const aborted = log.next(2, { signal: abort.signal, timeoutMs: 10_000 });
    abort.abort();
    expect(await aborted).toEqual([]);
  });

  it("puts restored entries before those recorded since, numbering those after", () => {
    const log = new ActivityLog();
    log.recordCall(call("late", 1));
    log.restore([{ kind: "event", seq: 40, at: 1, source: "sessions", event: "session.opened", detail: {} }]);
    expect(log.entries().map((e) => e.seq)).toEqual([40, 41]);
    expect(log.lastSeq).toBe(41);
  });
});
