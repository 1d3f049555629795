// Streamable HTTP end to end: the official SDK client against the real bridge process, then raw
// requests for the transport rules of MCP 2025-11-25 (protocol.md B7) and the 2026-07-28 probe
// (B8; the modern era end to end is test/e2e/sdk-2026.test.ts).
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { openStream, rawRequest, RawMcpSession } from "../helpers/raw-http.ts";

const EXPECTED_TOOLS = ["getToolCapabilities", "getWorkspaceFolders", "getProjectInfo", "getFileTree", "findFiles", "readFile"];
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess();
});

afterAll(async () => {
  await bridge?.stop();
});

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");
}

describe("SDK client over Streamable HTTP", () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    client = new Client({ name: "e2e-sdk-http", version: "0.0.0" });
    transport = new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await transport?.terminateSession();
    await client?.close();
  });

  it("negotiates the latest protocol version and declares tools and logging", () => {
    const caps = client.getServerCapabilities();
    expect(caps?.tools).toBeDefined();
    expect(caps?.logging).toBeDefined();
    expect(client.getServerVersion()?.name).toBeTruthy();
  });

  it("lists all tools, each with a description and an object inputSchema", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(EXPECTED_TOOLS));
    for (const tool of tools) {
      expect(tool.description, `${tool.name} has no description`).toBeTruthy();
      expect(tool.inputSchema.type, `${tool.name} inputSchema.type`).toBe("object");
    }
  });

  it("reads a workspace file", async () => {
    const result = await client.callTool({ name: "readFile", arguments: { path: "README.md" } });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(textOf(result)).toContain("A tiny workspace for end-to-end tests.");
  });

  it("refuses a path that leaves the workspace with an isError result", async () => {
    const result = await client.callTool({ name: "readFile", arguments: { path: "../../etc/passwd" } });
    expect(result.isError, textOf(result)).toBe(true);
    expect(textOf(result)).not.toContain("root:");
  });

  it("answers wrong argument types with an isError result", async () => {
    const result = await client.callTool({ name: "readFile", arguments: { path: 42 } });
    expect(result.isError, textOf(result)).toBe(true);
    expect(textOf(result)).toMatch(/path/i);
  });

  it("sets the logging level", async () => {
    await expect(client.setLoggingLevel("debug")).resolves.toBeDefined();
  });

  it("answers ping", async () => {
    await expect(client.ping()).resolves.toBeDefined();
  });
});

describe("Streamable HTTP transport rules (raw requests)", () => {
  // The bridge never evicts a session active within the last minute: end ours.
  const opened: RawMcpSession[] = [];
  const newSession = (): RawMcpSession => {
    const s = new RawMcpSession(bridge.mcpUrl, bridge.token);
    opened.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  const initBody = (id: number | string = 1, protocolVersion = "2025-11-25"): string =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-e2e", version: "0.0.0" } },
    });
  const jsonHeaders = (extra: Record<string, string> = {}): Record<string, string> => ({
    authorization: `Bearer ${bridge.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extra,
  });

  it.each(VERSIONS)("initialize with protocol %s is echoed", async (version) => {
    const session = newSession();
    const res = await session.initialize(version);
    expect(res.messages[0]?.result?.protocolVersion).toBe(version);
    expect(session.sessionId).toMatch(/^[\x21-\x7e]+$/);
  });

  it("initialize with an unknown protocol version answers with a supported one", async () => {
    const res = await newSession().initialize("1999-01-01");
    expect(VERSIONS).toContain(res.messages[0]?.result?.protocolVersion);
  });

  it("no token → 401 with WWW-Authenticate", async () => {
    const headers = jsonHeaders();
    delete headers.authorization;
    const res = await rawRequest(bridge.mcpUrl, { method: "POST", headers, body: initBody() });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/i);
  });

  it("wrong token → 401", async () => {
    const res = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: jsonHeaders({ authorization: `Bearer ${"x".repeat(48)}` }),
      body: initBody(),
    });
    expect(res.status).toBe(401);
  });

  it("missing Accept → 406", async () => {
    const headers = jsonHeaders();
    delete headers.accept;
    const res = await rawRequest(bridge.mcpUrl, { method: "POST", headers, body: initBody() });
    expect(res.status).toBe(406);
  });

  it("wrong Content-Type → 415", async () => {
    const res = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: jsonHeaders({ "content-type": "text/plain" }),
      body: initBody(),
    });
    expect(res.status).toBe(415);
  });

  it("non-initialize POST without a session → 400", async () => {
    const res = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: jsonHeaders({ "mcp-protocol-version": "2025-11-25" }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(400);
    expect(res.messages[0]?.error?.code).toBeTypeOf("number");
  });

  it("unknown session id → 404 with -32001", async () => {
    const res = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: jsonHeaders({ "mcp-session-id": randomUUID(), "mcp-protocol-version": "2025-11-25" }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(404);
    expect(res.messages[0]?.error?.code).toBe(-32001);
  });

  it("unsupported MCP-Protocol-Version on a session → 400", async () => {
    const session = newSession();
    await session.initialize();
    const res = await session.request("tools/list", {}, { "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect(res.messages[0]?.error?.code).toBeTypeOf("number");
    const ok = await session.request("tools/list");
    expect(ok.status).toBe(200);
  });

  it("server/discover with MCP-Protocol-Version 2026-07-28 → the DiscoverResult, with no session (B8)", async () => {
    const res = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: jsonHeaders({ "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" }),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "probe", version: "0.0.0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
      timeoutMs: 5_000,
    });
    expect(res.status).toBe(200);
    expect(res.headers["mcp-session-id"]).toBeUndefined();
    expect(res.messages[0]?.result).toMatchObject({ resultType: "complete", supportedVersions: ["2026-07-28"] });
  });

  it("DELETE ends the session; the id then gets 404", async () => {
    const session = newSession();
    await session.initialize();
    const del = await rawRequest(bridge.mcpUrl, { method: "DELETE", headers: session.sessionHeaders() });
    expect(del.status).toBeGreaterThanOrEqual(200);
    expect(del.status).toBeLessThan(300);
    const after = await session.request("tools/list");
    expect(after.status).toBe(404);
    expect(after.messages[0]?.error?.code).toBe(-32001);
  });

  it("malformed JSON → 400 with -32700, and the server keeps serving", async () => {
    const session = newSession();
    await session.initialize();
    const bad = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers: session.sessionHeaders(),
      body: '{"jsonrpc":"2.0","id":1,"method":',
    });
    expect(bad.status).toBe(400);
    expect(bad.messages[0]?.error?.code).toBe(-32700);
    const ok = await session.request("ping");
    expect(ok.status).toBe(200);
    expect(ok.messages[0]?.result).toEqual({});
    const fresh = newSession();
    await fresh.initialize();
  });

  it("a second GET SSE stream on one session → 409", async () => {
    const session = newSession();
    await session.initialize();
    const sseHeaders = session.sessionHeaders({ accept: "text/event-stream" });
    delete sseHeaders["content-type"];
    const first = await openStream(bridge.mcpUrl, { headers: sseHeaders });
    try {
      expect(first.res.statusCode).toBe(200);
      expect(first.res.headers["content-type"]).toContain("text/event-stream");
      const second = await openStream(bridge.mcpUrl, { headers: sseHeaders });
      second.close();
      expect(second.res.statusCode).toBe(409);
    } finally {
      first.close();
    }
  });

  it("/ping needs no auth", async () => {
    const res = await rawRequest(`${bridge.url}/ping`);
    expect(res.status).toBe(200);
  });

  it("/health needs auth", async () => {
    const anon = await rawRequest(`${bridge.url}/health`);
    expect(anon.status).toBe(401);
    const authed = await rawRequest(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
    expect(authed.status).toBe(200);
  });
});
