// Rate limits that an agent never meets and an attacker cannot multiply: token buckets per
// session with a burst real use fits, a budget shared by all sessions of one credential, refusals
// that spend nothing, and every message charged (invalid ones and garbage too). Time is an injected
// clock, never a sleep.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_FACTOR, credentialBudget } from "../../../src/mcp/limits/rate-budget.ts";
import { takeFromAll, TokenBucket } from "../../../src/mcp/limits/token-bucket.ts";
import { errorOf, makeSession, resultOf, toolError } from "../../helpers/session-fixture.ts";

describe("TokenBucket", () => {
  it("serves a burst, then refills at the sustained rate, and says when", () => {
    let now = 0;
    const bucket = new TokenBucket({ perMinute: 60, burst: 3 }, () => now);
    expect(takeFromAll([bucket])).toBe(0);
    expect(takeFromAll([bucket])).toBe(0);
    expect(takeFromAll([bucket])).toBe(0);
    expect(takeFromAll([bucket])).toBe(1000);
    now += 500;
    expect(bucket.retryAfterMs()).toBe(500);
    now += 500;
    expect(takeFromAll([bucket])).toBe(0);
    now += 60_000;
    expect(bucket.retryAfterMs()).toBe(0);
    // Refill never goes past the burst.
    for (let i = 0; i < 3; i++) expect(takeFromAll([bucket])).toBe(0);
    expect(takeFromAll([bucket])).toBeGreaterThan(0);
  });

  it("takes from every bucket or from none", () => {
    const full = new TokenBucket({ perMinute: 60, burst: 5 }, () => 0);
    const empty = new TokenBucket({ perMinute: 60, burst: 1 }, () => 0);
    expect(takeFromAll([empty])).toBe(0);
    expect(takeFromAll([full, empty])).toBe(1000);
    // The refusal by `empty` left `full` untouched: all five still there.
    for (let i = 0; i < 5; i++) expect(takeFromAll([full])).toBe(0);
  });

  it("reads a clock its buckets share once per charge, and each of two clocks once", () => {
    let reads = 0;
    let now = 0;
    const shared = () => {
      reads += 1;
      return now;
    };
    const session = new TokenBucket({ perMinute: 60, burst: 1 }, shared);
    const credential = new TokenBucket({ perMinute: 600, burst: 10 }, shared);
    reads = 0;
    expect(takeFromAll([session, credential])).toBe(0);
    expect(reads).toBe(1);
    // The one reading serves both: the session's bucket is empty at it, and refills from it.
    expect(takeFromAll([session, credential])).toBe(1000);
    now += 1000;
    expect(takeFromAll([session, credential])).toBe(0);
    expect(reads).toBe(3);
    let otherReads = 0;
    const other = new TokenBucket({ perMinute: 60, burst: 5 }, () => {
      otherReads += 1;
      return now;
    });
    now += 1000;
    reads = 0;
    otherReads = 0;
    expect(takeFromAll([session, other])).toBe(0);
    expect([reads, otherReads]).toEqual([1, 1]);
  });
});

describe("the session's budgets", () => {
  it("serves a burst of 120 tool calls from one session at the default 60/min", async () => {
    const { call, init } = makeSession({ toolCallsPerMinute: 60, requestsPerMinute: 200 });
    await init();
    for (let i = 0; i < 120; i++) {
      const result = resultOf(await call("tools/call", { name: "echo", arguments: { text: String(i) } }));
      expect(result.isError, JSON.stringify(result)).toBeUndefined();
    }
  });

  it("refuses past the burst with the time to retry, and serves again after it", async () => {
    const { call, init, clock } = makeSession({ toolCallsPerMinute: 10, requestsPerMinute: 1000 });
    await init();
    for (let i = 0; i < 30; i++) resultOf(await call("tools/call", { name: "echo", arguments: { text: "x" } }));
    const refused = toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: "x" } })));
    expect(refused).toMatchObject({
      code: "tool_rate_limited",
      error: "Tool call rate limit reached (10/min per session); retry in 6.0 s",
    });
    expect(refused.suggestion).toMatch(/Wait 6\.0 s/);
    clock.now += 6000;
    expect(resultOf(await call("tools/call", { name: "echo", arguments: { text: "x" } })).isError).toBeUndefined();
  });

  it("charges unknown tools and invalid arguments too", async () => {
    const { call, init } = makeSession({ toolCallsPerMinute: 1, requestsPerMinute: 1000 });
    await init();
    // Burst 3: one unknown tool, one invalid call, one good call; then the budget is gone.
    expect(toolError(resultOf(await call("tools/call", { name: "nope", arguments: {} }))).code).toBe("unknown_tool");
    expect(toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: 5 } }))).code).toBe("invalid_arguments");
    resultOf(await call("tools/call", { name: "echo", arguments: { text: "a" } }));
    expect(toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: "b" } }))).code).toBe("tool_rate_limited");
  });

  it("charges every message before it is parsed, garbage included, and answers -32004 with retryAfterMs", async () => {
    const { session, call, init, clock, events } = makeSession({ requestsPerMinute: 3 });
    const refusals: unknown[] = [];
    events.subscribe("rate.limited", (refusal) => refusals.push(refusal));
    await init();
    expect(await session.handleText("{not json")).toMatchObject({ error: { code: -32700 } });
    resultOf(await call("ping"));
    const limited = errorOf(await call("tools/list", {}, 77));
    expect(limited).toMatchObject({ code: -32004, data: { retryAfterMs: 20_000 } });
    expect(limited.message).toBe("Rate limit exceeded (--request-rate-limit); retry in 20.0 s");
    // A refused notification gets no answer; a refused request without a visible id gets id null.
    expect(
      await session.handleText(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } })),
    ).toBeUndefined();
    expect(await session.handleText('{"params":{"x":1},"id":5,"jsonrpc":"2.0","method":"ping"}')).toMatchObject({
      id: null,
      error: { code: -32004 },
    });
    // Each refusal is published for the activity log, naming the session and the limit.
    expect(refusals).toHaveLength(3);
    expect(refusals[0]).toEqual({ limit: "requests", waitMs: 20_000, session: session.id });
    clock.now += 20_000;
    resultOf(await call("ping"));
    expect(refusals).toHaveLength(3);
  });
});

describe("the credential's budget", () => {
  it("is shared by all sessions of one credential, so more sessions do not mean more calls", async () => {
    const clock = { now: 1_000_000 };
    const limits = { requestsPerMinute: 1000, toolCallsPerMinute: 10 };
    const shared = credentialBudget(limits, () => clock.now);
    const sessions = Array.from({ length: CREDENTIAL_FACTOR + 2 }, () => makeSession(limits, { credential: shared }));
    for (const s of sessions) await s.init();
    let served = 0;
    for (let round = 0; round < 40; round++) {
      for (const s of sessions) {
        const result = resultOf(await s.call("tools/call", { name: "echo", arguments: { text: "x" } }));
        if (result.isError === undefined) served++;
      }
    }
    // The credential's burst: CREDENTIAL_FACTOR sessions' worth (10 x 10/min x 3 = 300), not 12's.
    expect(served).toBe(CREDENTIAL_FACTOR * 30);
  });

  it("is not spent by a call the session's own budget refused", async () => {
    const limits = { requestsPerMinute: 1000, toolCallsPerMinute: 1 };
    const shared = credentialBudget(limits, () => 0);
    const greedy = makeSession(limits, { credential: shared });
    await greedy.init();
    for (let i = 0; i < 50; i++) await greedy.call("tools/call", { name: "echo", arguments: { text: "x" } });
    // greedy spent its own 3 tokens (and 3 of the credential's); its refusals spent nothing.
    const other = makeSession(limits, { credential: shared });
    await other.init();
    for (let i = 0; i < 3; i++)
      expect(resultOf(await other.call("tools/call", { name: "echo", arguments: { text: "x" } })).isError).toBeUndefined();
  });
});
