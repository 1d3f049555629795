// The Streamable HTTP session pool's rules, through the real transport with an injected clock: a
// session in use (active within a minute, or with a call in flight) is never evicted; a full
// pool evicts the oldest idle one, sessions without an open GET stream first, and otherwise
// answers 503 with Retry-After saying when a session becomes evictable.
import { describe, expect, it } from "vitest";
import { initialize, makeApp, MCP_HEADERS, post, readEvents } from "../../helpers/in-process-app.ts";

const url = "http://127.0.0.1:3000/mcp";
type App = ReturnType<typeof makeApp>["app"];

const init = (app: App) => post(app, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
const ping = (app: App, id: string) => post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id });
const openStream = (app: App, id: string) =>
  app.request(url, { method: "GET", headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": id } });
const slowCall = (app: App, id: string) =>
  post(app, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } }, { "mcp-session-id": id });

function pool(maxSessions: number) {
  const clock = { now: 1_000_000 };
  return { clock, ...makeApp({ maxSessions, now: () => clock.now }) };
}

describe("session pool", () => {
  it("keeps sessions active within the last minute: a full pool answers 503 with the seconds until one is evictable", async () => {
    const { app, clock } = pool(2);
    const a = await initialize(app);
    clock.now += 20_000;
    const b = await initialize(app);
    clock.now += 10_000; // a was last active 30 s ago, b 10 s ago
    const refused = await init(app);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("31"); // a passes a full idle minute in 30.001 s
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining("in use") } });
    expect((await ping(app, a)).status).toBe(200);
    expect((await ping(app, b)).status).toBe(200);
  });

  it("evicts the oldest session idle over 60 s, even if a fresher one is quieter", async () => {
    const { app, clock } = pool(2);
    const a = await initialize(app);
    clock.now += 1000;
    const b = await initialize(app);
    clock.now += 61_000;
    await ping(app, b); // b is active again; a has been idle over a minute
    const c = await initialize(app);
    expect((await ping(app, a)).status).toBe(404);
    expect((await ping(app, b)).status).toBe(200);
    expect((await ping(app, c)).status).toBe(200);
  });

  it("among idle sessions evicts one without an open GET stream first, then one with a stream (ending it)", async () => {
    const { app, clock } = pool(2);
    const streaming = await initialize(app);
    const stream = await openStream(app, streaming);
    expect(stream.status).toBe(200);
    clock.now += 1000;
    const quiet = await initialize(app); // e.g. a `claude mcp list` that exited without DELETE
    clock.now += 61_000;
    const c = await initialize(app);
    expect((await ping(app, quiet)).status).toBe(404);
    expect((await ping(app, streaming)).status).toBe(200);
    clock.now += 61_000;
    await ping(app, c);
    await initialize(app);
    expect((await ping(app, streaming)).status).toBe(404);
    expect(await readEvents(stream.body)).toEqual([]); // its stream was ended
  });

  it("never evicts a session with a call in flight, however long ago it began", async () => {
    const { app, http, clock } = pool(1);
    const a = await initialize(app);
    const slow = await slowCall(app, a);
    clock.now += 120_000;
    expect(http.pool.get(a)?.mcp.inFlight).toBe(1);
    const refused = await init(app);
    expect(refused.status).toBe(503);
    // The call must end and then a full idle minute pass.
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(http.pool.sweep()).toBe(0);
    http.pool.get(a)?.mcp.close();
    await slow.body?.cancel();
  });

  it("expires sessions idle for 10 minutes", async () => {
    const { app, http, clock } = pool(5);
    await initialize(app);
    clock.now += 10 * 60_000;
    expect(http.pool.sweep()).toBe(0);
    clock.now += 1;
    expect(http.pool.sweep()).toBe(1);
    expect(http.pool.size).toBe(0);
  });

  it("lets a client in once a session has been idle for a minute (clients that never DELETE)", async () => {
    const { app, clock } = pool(2);
    await initialize(app);
    await initialize(app);
    expect((await init(app)).status).toBe(503);
    clock.now += 60_001;
    expect((await init(app)).status).toBe(200);
  });
});
