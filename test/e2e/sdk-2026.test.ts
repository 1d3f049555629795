// MCP 2026-07-28 end to end with the official SDK 2.x client (@modelcontextprotocol/client 2.4.0)
// pinned to that revision (no fallback to initialize): over Streamable HTTP and over stdio through
// the shim, against the real bridge. Then both eras at once: a 2025 SDK client (1.x, initialize
// and a session) and a 2026 client calling the same bridge concurrently, each getting exactly its
// revision's shapes. Then MCP Tasks over HTTP: a long call becomes a task that is polled to its
// result, one is cancelled, and a client without the extension gets the plain result.
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2026 } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/raw-http.ts";
import { BRIDGE_BIN, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";

let bridge: BridgeProcess;

beforeAll(async () => {
  // sleep: a runCommand that takes long enough to be cancelled while it runs.
  bridge = await startBridgeProcess({ args: ["--allow-command", "sleep"] });
});

afterAll(async () => {
  await bridge?.stop();
});

function modernClient(): Client2026 {
  return new Client2026({ name: "e2e-sdk-2026", version: "0.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
}

function http2026(): Http2026 {
  return new Http2026(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } });
}

describe("SDK 2.x client pinned to 2026-07-28", () => {
  it("over Streamable HTTP: discovers, lists and calls a tool with no session", async () => {
    const client = modernClient();
    await client.connect(http2026());
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(client.getInstructions()).toContain(bridge.workspace);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("getWorkspaceFolders");
      const result = await client.callTool({ name: "getWorkspaceFolders", arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result)).toContain(bridge.workspace);
    } finally {
      await client.close();
    }
  });

  it("over stdio through the shim: the bridge answers the probe and the call", async () => {
    const client = modernClient();
    const transport = new Stdio2026({
      command: process.execPath,
      args: [BRIDGE_BIN, "shim", "--port", String(bridge.port), "--token", bridge.token],
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      const result = await client.callTool({ name: "readFile", arguments: { path: "README.md" } });
      expect(result.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe("both eras on one bridge at once", () => {
  it("a 2025 client (initialize, session) and a 2026 client (stateless) call tools concurrently", async () => {
    const legacy = new Client2025({ name: "e2e-sdk-2025", version: "0.0.0" });
    await legacy.connect(new Http2025(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }));
    const modern = modernClient();
    await modern.connect(http2026());
    try {
      expect(legacy.getServerVersion()?.name).toBe("claude-ide-bridge");
      expect(modern.getProtocolEra()).toBe("modern");
      const calls = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? legacy.callTool({ name: "getWorkspaceFolders", arguments: {} })
          : modern.callTool({ name: "getWorkspaceFolders", arguments: {} }),
      );
      for (const result of await Promise.all(calls)) {
        expect(result.isError ?? false).toBe(false);
        expect(JSON.stringify(result)).toContain(bridge.workspace);
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it("each era gets exactly its revision's shapes, side by side", async () => {
    const headers = {
      Authorization: `Bearer ${bridge.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const init = await rawRequest(bridge.mcpUrl, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      }),
    });
    const session = String(init.headers["mcp-session-id"] ?? "");
    expect(session).not.toBe("");
    const [legacyList, modernList] = await Promise.all([
      rawRequest(bridge.mcpUrl, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
      }),
      rawRequest(bridge.mcpUrl, {
        method: "POST",
        headers: { ...headers, "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta() } }),
      }),
    ]);
    const legacyResult = legacyList.messages[0]?.result ?? {};
    const modernResult = modernList.messages[0]?.result ?? {};
    expect(Object.keys(legacyResult)).not.toContain("resultType");
    expect(Object.keys(legacyResult)).not.toContain("ttlMs");
    expect(modernResult).toMatchObject({ resultType: "complete", cacheScope: "private" });
    expect(modernResult.ttlMs).toBeTypeOf("number");
    expect(modernList.headers["mcp-session-id"]).toBeUndefined();
    expect((modernResult.tools as unknown[]).length).toBe((legacyResult.tools as unknown[]).length);
  });
});

function meta(extensions?: Record<string, unknown>): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "e2e-tasks", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": extensions ? { extensions } : {},
  };
}

/** One modern request, raw, with its MCP headers; the JSON-RPC response (the last message of an SSE stream). */
async function modernRequest(method: string, params: Record<string, unknown>, name?: string): Promise<Record<string, unknown>> {
  const res = await rawRequest(bridge.mcpUrl, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${bridge.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    timeoutMs: 30_000,
  });
  const response = res.messages.find((m) => "result" in m || "error" in m);
  if (!response) throw new Error(`no response to ${method} (HTTP ${res.status})`);
  return response as Record<string, unknown>;
}

async function pollTask(taskId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const got = await modernRequest("tasks/get", { taskId, _meta: meta({ [TASKS]: {} }) }, taskId);
    const task = got.result as Record<string, unknown>;
    if (task.status !== "working") return task;
    await new Promise((resolve) => setTimeout(resolve, Number(task.pollIntervalMs ?? 500)));
  }
}

describe("MCP Tasks over HTTP", () => {
  it("workspace-wide getDiagnostics becomes a task whose result is fetched later", async () => {
    const created = (
      await modernRequest("tools/call", { name: "getDiagnostics", arguments: {}, _meta: meta({ [TASKS]: {} }) }, "getDiagnostics")
    ).result as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    expect(created.taskId).toBeTypeOf("string");
    const done = await pollTask(String(created.taskId));
    expect(done.status).toBe("completed");
    const result = done.result as Record<string, unknown>;
    expect(result.resultType).toBe("complete");
    expect(Array.isArray(result.content)).toBe(true);
  });

  it("a running task is cancelled with tasks/cancel", async () => {
    const created = (
      await modernRequest(
        "tools/call",
        { name: "runCommand", arguments: { command: "sleep", args: ["60"] }, _meta: meta({ [TASKS]: {} }) },
        "runCommand",
      )
    ).result as Record<string, unknown>;
    expect(created.resultType).toBe("task");
    const taskId = String(created.taskId);
    const ack = await modernRequest("tasks/cancel", { taskId, _meta: meta({ [TASKS]: {} }) }, taskId);
    expect(ack.result).toMatchObject({ resultType: "complete" });
    const task = await pollTask(taskId);
    expect(task.status).toBe("cancelled");
  });

  it("without the extension the same call answers synchronously, and tasks/get is refused with -32021", async () => {
    const plain = (await modernRequest("tools/call", { name: "getDiagnostics", arguments: {}, _meta: meta() }, "getDiagnostics"))
      .result as Record<string, unknown>;
    expect(plain.resultType).toBe("complete");
    const refused = await modernRequest("tasks/get", { taskId: "x", _meta: meta() }, "x");
    expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });
});
