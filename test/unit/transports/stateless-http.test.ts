// Streamable HTTP in the modern era (MCP 2026-07-28), in process through the real app: no session
// id minted or needed, the mirrored headers checked against the body (400 + -32020), the HTTP
// statuses the revision gives its errors, tools/call and subscriptions/listen on SSE streams, and
// the legacy era on the same endpoint at the same time.
import { describe, expect, it } from "vitest";
import { initialize, makeApp, post } from "../../helpers/in-process-app.ts";

const MODERN = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };

function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const { app } = makeApp();
  return { app, send: () => send(app, method, params, headers) };
}

function send(
  app: ReturnType<typeof makeApp>["app"],
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const source = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const name: Record<string, string> = source === undefined ? {} : { "mcp-name": source };
  return post(
    app,
    { jsonrpc: "2.0", id: 9, method, params: { _meta: META, ...params } },
    { "mcp-protocol-version": MODERN, "mcp-method": method, ...name, ...headers },
  );
}

/** The JSON-RPC messages of an SSE body. */
function events(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe("stateless Streamable HTTP (2026-07-28)", () => {
  it("answers server/discover with no session id minted", async () => {
    const res = await modern("server/discover").send();
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(await res.json()).toMatchObject({ id: 9, result: { resultType: "complete", supportedVersions: [MODERN] } });
  });

  it("answers tools/call on an SSE stream, ending with the result", async () => {
    const res = await modern("tools/call", { name: "echo", arguments: { text: "hi" } }).send();
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(events(await res.text()).at(-1)).toMatchObject({ id: 9, result: { resultType: "complete", content: [{ text: "hi" }] } });
  });

  it.each([
    ["a missing MCP-Protocol-Version", { "mcp-protocol-version": "" }, "MCP-Protocol-Version header is missing"],
    ["an MCP-Protocol-Version unlike _meta's", { "mcp-protocol-version": "2025-11-25" }, "does not match _meta"],
    ["a missing Mcp-Method", { "mcp-method": "" }, "Mcp-Method header is missing"],
    ["an Mcp-Method unlike the body's", { "mcp-method": "TOOLS/CALL" }, "Mcp-Method header value 'TOOLS/CALL'"],
    ["a missing Mcp-Name", { "mcp-name": "" }, "Mcp-Name header is missing"],
    ["an Mcp-Name unlike params.name", { "mcp-name": "other" }, "Mcp-Name header value 'other'"],
  ])("refuses %s with 400 and -32020", async (_what, headers, message) => {
    const { app } = makeApp();
    const cleared = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ""));
    const omitted = Object.keys(headers).filter((k) => headers[k as keyof typeof headers] === "");
    const res = await post(
      app,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "x" }, _meta: META } },
      Object.fromEntries(
        Object.entries({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo", ...cleared }).filter(
          ([k]) => !omitted.includes(k),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-32020);
    expect(body.error.message).toContain(message);
  });

  it("accepts an Mcp-Name in the base64 sentinel form", async () => {
    const res = await modern(
      "tools/call",
      { name: "echo", arguments: { text: "b64" } },
      { "mcp-name": `=?base64?${btoa("echo")}?=` },
    ).send();
    expect(res.status).toBe(200);
    expect(events(await res.text()).at(-1)).toMatchObject({ result: { content: [{ text: "b64" }] } });
  });

  it("gives the revision's statuses: 400 for the envelope and -32022, 404 for unknown methods, 200 for the rest", async () => {
    const { app } = makeApp();
    const noMeta = await post(
      app,
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: {} },
      { "mcp-protocol-version": MODERN, "mcp-method": "server/discover" },
    );
    expect([noMeta.status, ((await noMeta.json()) as { error: { code: number } }).error.code]).toEqual([400, -32602]);
    const old = await post(
      app,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
      },
      { "mcp-protocol-version": "1999-01-01", "mcp-method": "tools/list" },
    );
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: { code: -32022, data: { supported: [MODERN], requested: "1999-01-01" } } });
    const unknown = await send(app, "logging/setLevel", { level: "info" });
    expect([unknown.status, ((await unknown.json()) as { error: { code: number } }).error.code]).toEqual([404, -32601]);
    const missing = await send(app, "resources/read", { uri: "file:///none" });
    expect(missing.status).toBe(200);
    expect(await missing.json()).toMatchObject({ error: { code: -32602, data: { uri: "file:///none" } } });
  });

  it("opens subscriptions/listen as an SSE stream whose first event is the acknowledgement", async () => {
    const { app } = makeApp();
    const res = await send(app, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body?.getReader();
    const first = await reader?.read();
    const text = new TextDecoder().decode(first?.value);
    expect(events(text)[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 }, notifications: { toolsListChanged: true } },
    });
    await reader?.cancel();
  });

  it("serves a legacy session and stateless requests side by side, each in its own shapes", async () => {
    const { app } = makeApp();
    const session = await initialize(app);
    const legacy = await post(
      app,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    );
    const stateless = await send(app, "tools/list", {}, { "mcp-session-id": session });
    const legacyResult = ((await legacy.json()) as { result: Record<string, unknown> }).result;
    const modernResult = ((await stateless.json()) as { result: Record<string, unknown> }).result;
    expect(legacyResult).not.toHaveProperty("resultType");
    expect(modernResult).toMatchObject({ resultType: "complete", cacheScope: "private" });
    // A modern request ignores the session header it carries and is not given one back.
    expect(stateless.headers.get("mcp-session-id")).toBeNull();
  });
});
