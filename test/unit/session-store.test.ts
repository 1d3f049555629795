import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/log.ts";
import type { JsonRpcMessage } from "../../src/mcp/jsonrpc.ts";
import { SessionStore } from "../../src/mcp/session-store.ts";
import { makeSession } from "../helpers/session-fixture.ts";

function store(graceMs = 1000) {
  return new SessionStore({ createSession: () => makeSession().session, graceMs, logger: silentLogger });
}
const sink = () => {
  const sent: JsonRpcMessage[] = [];
  return { sent, send: (m: JsonRpcMessage) => sent.push(m) };
};
const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t" } } };

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionStore", () => {
  it("reattaches a client that comes back within the grace period, state and counters kept", async () => {
    vi.useFakeTimers();
    const sessions = store(1000);
    const first = sessions.attach("client-aaaa-1", sink(), () => {});
    await first.session.handleText(JSON.stringify(init));
    await first.session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }));
    first.detach();
    expect(sessions.inGrace).toBe(1);
    vi.advanceTimersByTime(900);
    const out = sink();
    const second = sessions.attach("client-aaaa-1", out, () => {});
    expect(second.resumed).toBe(true);
    expect(second.session).toBe(first.session);
    expect(second.session.initialized).toBe(true);
    expect(second.session.stats.callCount).toBe(1);
    expect(sessions.inGrace).toBe(0);
    vi.advanceTimersByTime(5000); // the old grace timer must not fire
    expect(second.session.closed).toBe(false);
    second.session.notifyToolsListChanged();
    expect(out.sent).toHaveLength(1);
  });

  it("ends the session when the grace period runs out; the client then gets a new one", () => {
    vi.useFakeTimers();
    const sessions = store(1000);
    const first = sessions.attach("client-bbbb-1", sink(), () => {});
    first.detach();
    vi.advanceTimersByTime(1001);
    expect(first.session.closed).toBe(true);
    expect(sessions.inGrace).toBe(0);
    const again = sessions.attach("client-bbbb-1", sink(), () => {});
    expect(again.resumed).toBe(false);
    expect(again.session).not.toBe(first.session);
  });

  it("ends an anonymous session (no client id) when its socket closes", () => {
    const sessions = store();
    const anonymous = sessions.attach(undefined, sink(), () => {});
    expect(sessions.active).toBe(1);
    anonymous.detach();
    expect(anonymous.session.closed).toBe(true);
    expect(sessions.active + sessions.inGrace).toBe(0);
  });

  it("lets a newer socket take over: the older is told to go and its close changes nothing", () => {
    const sessions = store();
    let evicted = 0;
    const old = sessions.attach("client-cccc-1", sink(), () => evicted++);
    const fresh = sessions.attach("client-cccc-1", sink(), () => {});
    expect(evicted).toBe(1);
    expect(old.current()).toBe(false);
    expect(fresh.current()).toBe(true);
    old.detach(); // the stale socket's close arrives late
    expect(sessions.inGrace).toBe(0);
    expect(sessions.active).toBe(1);
  });

  it("never mixes two clients' sessions", () => {
    const sessions = store();
    const a = sessions.attach("client-dddd-1", sink(), () => {});
    const b = sessions.attach("client-dddd-2", sink(), () => {});
    expect(a.session).not.toBe(b.session);
  });

  it("closes everything on shutdown", () => {
    const sessions = store();
    const a = sessions.attach("client-eeee-1", sink(), () => {});
    const b = sessions.attach(undefined, sink(), () => {});
    a.detach();
    sessions.closeAll();
    expect(a.session.closed && b.session.closed).toBe(true);
    expect(sessions.active + sessions.inGrace).toBe(0);
  });
});
