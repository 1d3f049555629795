import { describe, expect, it } from "vitest";
import { HttpSession, REPLAY_CHARS_PER_SESSION } from "../../../src/transports/http/http-session.ts";
import { openSseConnection } from "../../../src/transports/http/sse-channel.ts";
import { initialize, makeApp, MCP_HEADERS, post, readEvents, TOKEN } from "../../helpers/in-process-app.ts";
import { makeSession } from "../../helpers/session-fixture.ts";

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
    expect(await rpcError(bad)).toMatchObject({
      status: 400,
      code: -32000,
      message: expect.stringContaining("Unsupported protocol version"),
    });
    const probe = await post(
      app,
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: {} },
      { "mcp-protocol-version": "2026-07-28" },
    );
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
    expect(JSON.parse(events.at(-1)?.data ?? "{}")).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: { content: [{ type: "text", text: "hey" }] },
    });
  });

  it("does not prime streams for clients of older revisions", async () => {
    const { app } = makeApp();
    const id = await initialize(app, "2025-03-26");
    const response = await post(
      app,
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } },
      { "mcp-session-id": id },
    );
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

  it("DELETE ends the session; later requests get 404 -32001; other methods 405", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    expect((await app.request(url, { method: "DELETE", headers: { ...MCP_HEADERS, "mcp-session-id": id } })).status).toBe(200);
    expect(await rpcError(await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": id }))).toMatchObject({
      status: 404,
      code: -32001,
    });
    const put = await app.request(url, { method: "PUT", headers: MCP_HEADERS });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});

describe("resumption (Last-Event-ID) and its memory", () => {
  type App = ReturnType<typeof makeApp>["app"];
  const resume = (app: App, session: string, lastEventId: string) =>
    app.request(url, {
      method: "GET",
      headers: { ...MCP_HEADERS, accept: "text/event-stream", "mcp-session-id": session, "last-event-id": lastEventId },
    });
  const seqOf = (eventId: string | undefined) => Number(eventId?.split("_")[1]);

  /** A tools/call whose client drops the connection after two events; then the call is cancelled, so it ends unseen. */
  async function droppedCall(app: App, session: string, requestId: number): Promise<string> {
    const params = { name: "slow", arguments: {}, _meta: { progressToken: "p" } };
    const response = await post(
      app,
      { jsonrpc: "2.0", id: requestId, method: "tools/call", params },
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    );
    const seen = await readEvents(response.body, 2); // priming event + first progress; then the connection drops
    const cancelled = await post(
      app,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } },
      { "mcp-session-id": session },
    );
    expect(cancelled.status).toBe(202);
    return seen[1]?.id ?? "";
  }

  it("replays what a client missed after its connection dropped, ending with the response", async () => {
    const { app } = makeApp();
    const id = await initialize(app);
    const lastSeen = await droppedCall(app, id, 3);
    const resumed = await resume(app, id, lastSeen);
    expect(resumed.status).toBe(200);
    const replayed = await readEvents(resumed.body);
    expect(seqOf(replayed[0]?.id)).toBe(seqOf(lastSeen) + 1);
    expect(replayed.every((e) => e.id?.split("_")[0] === lastSeen.split("_")[0])).toBe(true);
    expect(JSON.parse(replayed.at(-1)?.data ?? "{}")).toMatchObject({ id: 3, result: { isError: true } });
    const unknown = await resume(app, id, "zzz_1");
    expect(unknown.status).toBe(400);
  });

  it("keeps nothing of a stream delivered whole to a connected client", async () => {
    const { app, http } = makeApp();
    const id = await initialize(app);
    const response = await post(
      app,
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "echo", arguments: { text: "r" } } },
      { "mcp-session-id": id },
    );
    const events = await readEvents(response.body);
    expect(JSON.parse(events.at(-1)?.data ?? "{}")).toMatchObject({ id: 4 });
    expect(http.pool.get(id)?.keptChars).toBe(0);
    expect((await resume(app, id, events[0]?.id ?? "")).status).toBe(400);
  });

  it("bounds what a session keeps in characters, oldest first; a replay whose response is gone is refused", async () => {
    const { app, http } = makeApp();
    const id = await initialize(app);
    const lastSeen = await droppedCall(app, id, 5);
    const session = http.pool.get(id);
    if (!session) throw new Error("no session");
    // Later large events (a notification stream nobody reads) push the dropped call's events out.
    const later = session.newChannel();
    const chunk = "x".repeat(1024 * 1024);
    for (let i = 0; i < 6; i++) later.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: chunk } });
    expect(session.keptChars).toBeLessThanOrEqual(REPLAY_CHARS_PER_SESSION);
    expect(session.keptChars).toBeGreaterThan(REPLAY_CHARS_PER_SESSION - 1.1 * chunk.length);
    const refused = await resume(app, id, lastSeen);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("no longer kept");
    const newest = await resume(app, id, `${later.streamId}_4`);
    expect(newest.status).toBe(200);
    const replayed = await readEvents(newest.body, 1);
    expect(replayed[0]?.id).toBe(`${later.streamId}_5`);
  });

  it("holds the character bound under many large responses to clients that went away, newest kept", () => {
    const bound = 1024 * 1024;
    const session = new HttpSession(makeSession().session, bound);
    const channels = Array.from({ length: 40 }, (_, i) => {
      const channel = session.newChannel();
      const connection = openSseConnection(() => channel.detach(connection));
      channel.attach(connection);
      channel.prime();
      void connection.body.cancel(); // the client went away before the response
      channel.send({ jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: "y".repeat(100_000) }] } });
      channel.finish();
      expect(session.keptChars).toBeLessThanOrEqual(bound);
      return channel;
    });
    expect(channels.at(-1)?.canResume(0)).toBe(true);
    expect(channels[0]?.canResume(0)).toBe(false);
    expect(session.keptChars).toBeGreaterThan(bound - 200_000);
  });
});
