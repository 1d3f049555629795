import { describe, expect, it } from "vitest";
import { initialize, makeApp, MCP_HEADERS, post, readEvents, TOKEN } from "../helpers/in-process-app.ts";

const url = "http://127.0.0.1:3000/mcp";

async function rpcError(response: Response) {
  const body = (await response.json()) as { error: { code: number; message: string } };
  return { status: response.status, ...body.error };
}

describe("auth and DNS-rebinding checks", () => {
  it("401s a missing or wrong bearer token with WWW-Authenticate", async () => {
    const { app } = makeApp();
    const none = await post(app, {}, { authorization: "" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect((await post(app, {}, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post(app, {}, { authorization: TOKEN })).status).toBe(401);
  });

  it("403s a foreign Host or Origin even with a valid token", async () => {
    const { app } = makeApp();
    expect((await post(app, {}, { host: "evil.example:3000" })).status).toBe(403);
    expect((await post(app, {}, { origin: "http://evil.example" })).status).toBe(403);
    expect((await post(app, {}, { origin: "null" })).status).toBe(403);
    const ok = await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { origin: "http://localhost:6274" });
    expect(ok.status).toBe(400); // passes the origin check; fails later for lacking a session
  });

  it("serves /ping without auth and /health only with it", async () => {
    const { app } = makeApp();
    const headers = { host: "127.0.0.1:3000" };
    expect(await (await app.request("http://127.0.0.1:3000/ping", { headers })).json()).toMatchObject({ ok: true });
    expect((await app.request("http://127.0.0.1:3000/health", { headers })).status).toBe(401);
    const health = await app.request("http://127.0.0.1:3000/health", { headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
    expect(health.status).toBe(200);
    expect((await app.request("http://127.0.0.1:3000/nope", { headers })).status).toBe(404);
  });
});

describe("POST /mcp", () => {
  it("406 without both media types in Accept, 415 without JSON Content-Type, 413 when too big", async () => {
    const { app } = makeApp();
    expect((await post(app, {}, { accept: "application/json" })).status).toBe(406);
    expect((await post(app, {}, { "content-type": "text/plain" })).status).toBe(415);
    expect((await post(app, "x".repeat(4 * 1024 * 1024 + 1))).status).toBe(413);
  });

  it("400 -32700 for bad JSON and -32600 for a bad message, then keeps serving", async () => {
    const { app } = makeApp();
    expect(await rpcError(await post(app, "{oops"))).toMatchObject({ status: 400, code: -32700 });
    expect(await rpcError(await post(app, { jsonrpc: "2.0", id: 1 }))).toMatchObject({ status: 400, code: -32600 });
    expect(await rpcError(await post(app, [{ jsonrpc: "2.0", id: 1, method: "ping" }]))).toMatchObject({ status: 400, code: -32600 });
    await initialize(app);
  });

  it("issues Mcp-Session-Id on initialize and requires it afterwards (400 missing, 404 -32001 unknown)", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(await rpcError(await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }))).toMatchObject({ status: 400, code: -32000 });
    expect(await rpcError(await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": "nope" }))).toMatchObject({
      status: 404,
      code: -32001,
      message: "Session not found",
    });
    const ok = await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id });
    expect(ok.headers.get("content-type")).toMatch(/application\/json/);
    expect(await ok.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("answers an unsupported MCP-Protocol-Version (and a server/discover probe) with 400 at once", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    const bad = await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id, "mcp-protocol-version": "2099-01-01" });
    expect(await rpcError(bad)).toMatchObject({ status: 400, code: -32000, message: expect.stringContaining("Unsupported protocol version") });
    const probe = await post(app, { jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }, { "mcp-protocol-version": "2026-07-28" });
    expect(probe.status).toBe(400);
  });

  it("202s notifications and responses", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    const response = await post(app, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("streams tools/call as SSE: priming event, progress, then the result", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    const response = await post(
      app,
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "hey" }, _meta: { progressToken: 1 } } },
      { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readEvents(response.body);
    expect(events[0]?.data).toBe("");
    expect(events[0]?.id).toMatch(/_0$/);
    expect(JSON.parse(events.at(-1)?.data ?? "{}")).toEqual({ jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "hey" }] } });
  });

  it("does not prime streams for clients of older revisions", async () => {
    const { app } = makeApp();
    const id = await initialize(app, "2025-03-26");
    const response = await post(app, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } }, { "mcp-session-id": id });
    const events = await readEvents(response.body);
    expect(events).toHaveLength(1);
  });
});

describe("GET and DELETE /mcp", () => {
  it("opens one standalone SSE stream per session (second is 409) and delivers list_changed on it", async () => {
    const { app, http } = makeApp();
    const id = await initialize(app);
    const headers = { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": id };
    expect((await app.request(url, { method: "GET", headers: { ...headers, accept: "application/json" } })).status).toBe(406);
    const first = await app.request(url, { method: "GET", headers });
    expect(first.status).toBe(200);
    const second = await app.request(url, { method: "GET", headers });
    expect(second.status).toBe(409);
    http.pool.get(id)?.mcp.notifyToolsListChanged();
    const events = await readEvents(first.body, 1);
    expect(JSON.parse(events[0]?.data ?? "{}")).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  it("replays a stream's missed events on GET with Last-Event-ID", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    const response = await post(app, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "r" } } }, { "mcp-session-id": id });
    const events = await readEvents(response.body);
    const primingId = events[0]?.id ?? "";
    const resumed = await app.request(url, { method: "GET", headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": id, "last-event-id": primingId } });
    expect(resumed.status).toBe(200);
    const replayed = await readEvents(resumed.body);
    expect(replayed.map((e) => JSON.parse(e.data).id)).toEqual([3]);
    const unknown = await app.request(url, { method: "GET", headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": id, "last-event-id": "zzz_1" } });
    expect(unknown.status).toBe(400);
  });

  it("DELETE ends the session; later requests get 404 -32001; other methods 405", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    expect((await app.request(url, { method: "DELETE", headers: { ...MCP_HEADERS, "mcp-session-id": id } })).status).toBe(200);
    expect(await rpcError(await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id }))).toMatchObject({ status: 404, code: -32001 });
    const put = await app.request(url, { method: "PUT", headers: MCP_HEADERS });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});

describe("session pool", () => {
  const init = (app: ReturnType<typeof makeApp>["app"]) =>
    post(app, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
  const ping = (app: ReturnType<typeof makeApp>["app"], id: string) => post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id });

  it("evicts the oldest session idle over 60 s first, even if a fresher one is quieter", async () => {
    const clock = { now: 1_000_000 };
    const { app } = makeApp({ maxSessions: 2, now: () => clock.now });
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

  it("otherwise evicts the least recently active session without a call or an open stream", async () => {
    const clock = { now: 1_000_000 };
    const { app } = makeApp({ maxSessions: 2, now: () => clock.now });
    const a = await initialize(app); // e.g. a `claude mcp list` that exited without DELETE
    clock.now += 1000;
    const b = await initialize(app);
    clock.now += 1000;
    const c = await initialize(app);
    expect((await ping(app, a)).status).toBe(404);
    expect((await ping(app, b)).status).toBe(200);
    expect((await ping(app, c)).status).toBe(200);
  });

  it("prefers sessions without an open GET stream, but evicts one rather than refuse a client", async () => {
    const clock = { now: 1_000_000 };
    const { app } = makeApp({ maxSessions: 2, now: () => clock.now });
    const streaming = await initialize(app);
    const stream = await app.request(url, { method: "GET", headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": streaming } });
    expect(stream.status).toBe(200);
    clock.now += 1000;
    const quiet = await initialize(app);
    clock.now += 1000;
    await initialize(app);
    expect((await ping(app, quiet)).status).toBe(404);
    expect((await ping(app, streaming)).status).toBe(200);
  });

  it("evicts a session with an open stream when every other choice is gone", async () => {
    const { app } = makeApp({ maxSessions: 1 });
    const streaming = await initialize(app);
    const stream = await app.request(url, { method: "GET", headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": streaming } });
    await initialize(app);
    expect((await ping(app, streaming)).status).toBe(404);
    expect(await readEvents(stream.body)).toEqual([]); // its stream was ended
  });

  it("never evicts a session with a call in flight, and expires idle ones after 10 minutes", async () => {
    const clock = { now: 1_000_000 };
    const { app, http } = makeApp({ maxSessions: 1, now: () => clock.now });
    const a = await initialize(app);
    const slow = await post(app, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } }, { "mcp-session-id": a });
    clock.now += 120_000;
    expect(http.pool.get(a)?.mcp.inFlight).toBe(1);
    const refused = await init(app);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(http.pool.sweep()).toBe(0);
    http.pool.get(a)?.mcp.close();
    await slow.body?.cancel();
    clock.now += 10 * 60_000 + 1;
    expect(http.pool.sweep()).toBe(1);
    expect(http.pool.size).toBe(0);
  });
});
