import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../../src/log.ts";
import type { JsonRpcMessage } from "../../../src/mcp/protocol/jsonrpc.ts";
import { SessionStore } from "../../../src/mcp/sessions/session-store.ts";
import { makeSession } from "../../helpers/session-fixture.ts";

function store(graceMs = 1000, maxSessions?: number) {
  return new SessionStore({ createSession: () => makeSession().session, graceMs, maxSessions, logger: silentLogger });
}
const sink = () => {
  const sent: JsonRpcMessage[] = [];
  return { sent, send: (m: JsonRpcMessage) => sent.push(m) };
};
const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t" } },
};

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionStore", () => {
  it("reattaches a client that comes back within the grace period, state and counters kept", async () => {
    vi.useFakeTimers();
    const sessions = store(1000);
    const first = sessions.attach("client-aaaa-1", { sink: sink(), evictSocket: () => {} });
    await first.session.handleText(JSON.stringify(init));
    await first.session.handleText(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }),
    );
    expect(sessions.graceEnds().size).toBe(0);
    first.detach();
    expect(sessions.inGrace).toBe(1);
    // Each session in grace, by id, with when it is dropped: what the dashboard and getBridgeStatus show.
    expect(sessions.graceEnds()).toEqual(new Map([[first.session.id, Date.now() + 1000]]));
    vi.advanceTimersByTime(900);
    const out = sink();
    const second = sessions.attach("client-aaaa-1", { sink: out, evictSocket: () => {} });
    expect(second.resumed).toBe(true);
    expect(second.session).toBe(first.session);
    expect(second.session.initialized).toBe(true);
    expect(second.session.stats.callCount).toBe(1);
    expect(sessions.inGrace).toBe(0);
    expect(sessions.graceEnds().size).toBe(0);
    vi.advanceTimersByTime(5000); // the old grace timer must not fire
    expect(second.session.closed).toBe(false);
    second.session.notifyToolsListChanged();
    expect(out.sent).toHaveLength(1);
  });

  it("ends the session when the grace period runs out; the client then gets a new one", () => {
    vi.useFakeTimers();
    const sessions = store(1000);
    const first = sessions.attach("client-bbbb-1", { sink: sink(), evictSocket: () => {} });
    first.detach();
    vi.advanceTimersByTime(1001);
    expect(first.session.closed).toBe(true);
    expect(sessions.inGrace).toBe(0);
    const again = sessions.attach("client-bbbb-1", { sink: sink(), evictSocket: () => {} });
    expect(again.resumed).toBe(false);
    expect(again.session).not.toBe(first.session);
  });

  it("ends an anonymous session (no client id) when its socket closes", () => {
    const sessions = store();
    const anonymous = sessions.attach(undefined, { sink: sink(), evictSocket: () => {} });
    expect(sessions.active).toBe(1);
    anonymous.detach();
    expect(anonymous.session.closed).toBe(true);
    expect(sessions.active + sessions.inGrace).toBe(0);
  });

  it("lets a newer socket take over: the older is told to go and its close changes nothing", () => {
    const sessions = store();
    let evicted = 0;
    const old = sessions.attach("client-cccc-1", { sink: sink(), evictSocket: () => evicted++ });
    const fresh = sessions.attach("client-cccc-1", { sink: sink(), evictSocket: () => {} });
    expect(evicted).toBe(1);
    expect(old.current()).toBe(false);
    expect(fresh.current()).toBe(true);
    old.detach(); // the stale socket's close arrives late
    expect(sessions.inGrace).toBe(0);
    expect(sessions.active).toBe(1);
  });

  it("never mixes two clients' sessions", () => {
    const sessions = store();
    const a = sessions.attach("client-dddd-1", { sink: sink(), evictSocket: () => {} });
    const b = sessions.attach("client-dddd-2", { sink: sink(), evictSocket: () => {} });
    expect(a.session).not.toBe(b.session);
  });

  it("closes everything on shutdown", () => {
    const sessions = store();
    const a = sessions.attach("client-eeee-1", { sink: sink(), evictSocket: () => {} });
    const b = sessions.attach(undefined, { sink: sink(), evictSocket: () => {} });
    a.detach();
    sessions.closeAll();
    expect(a.session.closed && b.session.closed).toBe(true);
    expect(sessions.active + sessions.inGrace).toBe(0);
  });
});

describe("SessionStore bound (--max-ws-sessions)", () => {
  const id = (n: number) => `client-bound-${n}`;

  it("keeps at most maxSessions: a newcomer takes the place of the session longest in grace", () => {
    const sessions = store(60_000, 3);
    const dropped = [1, 2, 3].map((n) => {
      const attachment = sessions.attach(id(n), { sink: sink(), evictSocket: () => {} });
      attachment.detach();
      return attachment;
    });
    // Grace order is the order of detaching, not of connecting.
    const reattached = sessions.attach(id(1), { sink: sink(), evictSocket: () => {} });
    expect(reattached.resumed).toBe(true);
    reattached.detach();
    sessions.attach(id(4), { sink: sink(), evictSocket: () => {} }).detach();
    expect(sessions.active + sessions.inGrace).toBe(3);
    expect(dropped[1]?.session.closed).toBe(true); // id 2 entered grace first
    expect(dropped[0]?.session.closed).toBe(false);
    expect(sessions.attach(id(2), { sink: sink(), evictSocket: () => {} }).resumed).toBe(false);
    sessions.closeAll();
  });

  it("never drops a connected session for a newcomer; hasRoom() says when a socket must be refused", () => {
    const sessions = store(60_000, 2);
    const a = sessions.attach(id(1), { sink: sink(), evictSocket: () => {} });
    const b = sessions.attach(id(2), { sink: sink(), evictSocket: () => {} });
    expect(sessions.hasRoom(id(3))).toBe(false);
    expect(sessions.hasRoom(undefined)).toBe(false);
    expect(sessions.hasRoom(id(1))).toBe(true); // its own session is kept: a reconnect always fits
    b.detach();
    expect(sessions.hasRoom(id(3))).toBe(true); // b in grace can give its place up
    const c = sessions.attach(id(3), { sink: sink(), evictSocket: () => {} });
    expect(b.session.closed).toBe(true);
    expect(a.session.closed || c.session.closed).toBe(false);
    expect(sessions.hasRoom(id(4))).toBe(false);
    sessions.closeAll();
  });

  it("counts anonymous sockets against the bound", () => {
    const sessions = store(60_000, 1);
    const anonymous = sessions.attach(undefined, { sink: sink(), evictSocket: () => {} });
    expect(sessions.hasRoom(id(1))).toBe(false);
    anonymous.detach();
    expect(sessions.hasRoom(id(1))).toBe(true);
  });

  it("restores only as many checkpointed sessions as fit, the first listed (most recent) first", () => {
    const sessions = store(60_000, 2);
    const state = { protocolVersion: "2025-11-25" as const, stats: { callCount: 0, errorCount: 0 } };
    expect(sessions.restore([1, 2, 3].map((n) => ({ clientId: id(n), state })))).toBe(2);
    expect(sessions.inGrace).toBe(2);
    expect(sessions.attach(id(1), { sink: sink(), evictSocket: () => {} }).resumed).toBe(true);
    expect(sessions.attach(id(3), { sink: sink(), evictSocket: () => {} }).resumed).toBe(false);
    sessions.closeAll();
  });

  it("snapshots at most `limit` sessions, the most recently active first", async () => {
    const clock = { now: 1_000 };
    const sessions = new SessionStore({
      createSession: () => makeSessionAt(clock),
      graceMs: 60_000,
      maxSessions: 10,
      logger: silentLogger,
    });
    for (const n of [1, 2, 3]) {
      clock.now += 1_000;
      await sessions.attach(id(n), { sink: sink(), evictSocket: () => {} }).session.handleText(JSON.stringify(init));
    }
    clock.now += 1_000;
    await sessions
      .attach(id(1), { sink: sink(), evictSocket: () => {} })
      .session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    expect(sessions.snapshot(2).map((s) => s.clientId)).toEqual([id(1), id(3)]);
    expect(sessions.snapshot().map((s) => s.clientId)).toEqual([id(1), id(3), id(2)]);
    sessions.closeAll();
  });
});

/** A fixture session whose clock is `clock` (the fixture gives each session a clock of its own). */
function makeSessionAt(clock: { now: number }) {
  const fixture = makeSession();
  Object.defineProperty(fixture.clock, "now", { get: () => clock.now });
  return fixture.session;
}
