// The Claude Code IDE WebSocket link end to end: the SDK client through WebSocketClientTransport
// (auth header injected by a `ws` subclass), then raw `ws` checks of the upgrade and framing rules.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import type WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { AUTH_HEADER, authedWebSocketClass, connectOrThrow, FrameLog, tryConnect, waitForClose } from "../helpers/ws-client.ts";

let bridge: BridgeProcess;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  bridge = await startBridgeProcess();
});

afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate();
});

afterAll(async () => {
  await bridge?.stop();
});

async function open(): Promise<FrameLog> {
  const ws = await connectOrThrow(bridge.wsUrl, bridge.token);
  ws.on("error", () => undefined);
  sockets.push(ws);
  return new FrameLog(ws);
}

describe("SDK client over WebSocket", () => {
  // Node 20 has no global WebSocket; the SDK's transport looks for one.
  const savedWebSocket: unknown = Reflect.get(globalThis, "WebSocket");
  let client: Client;

  beforeAll(async () => {
    Reflect.set(globalThis, "WebSocket", authedWebSocketClass(bridge.token));
    client = new Client({ name: "e2e-sdk-ws", version: "0.0.0" });
    await client.connect(new WebSocketClientTransport(new URL(bridge.wsUrl)));
  });

  afterAll(async () => {
    await client?.close();
    Reflect.set(globalThis, "WebSocket", savedWebSocket);
  });

  it("lists the tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["readFile", "getWorkspaceFolders", "getFileTree"]));
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
  });

  it("calls readFile and getWorkspaceFolders", async () => {
    const read = await client.callTool({ name: "readFile", arguments: { path: "src/index.ts" } });
    expect(read.isError ?? false).toBe(false);
    expect(JSON.stringify(read.content)).toContain("export function greet");
    const folders = await client.callTool({ name: "getWorkspaceFolders", arguments: {} });
    expect(folders.isError ?? false).toBe(false);
    expect(JSON.stringify(folders)).toContain(bridge.workspace);
  });

  it("answers ping", async () => {
    await expect(client.ping()).resolves.toBeDefined();
  });
});

describe("WebSocket upgrade and framing (raw ws)", () => {
  it("refuses an upgrade without the auth header", async () => {
    const outcome = await tryConnect(bridge.wsUrl);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect([400, 401]).toContain(outcome.status);
  });

  it("refuses a wrong token", async () => {
    const outcome = await tryConnect(bridge.wsUrl, { headers: { [AUTH_HEADER]: "y".repeat(48) } });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect([400, 401, 403]).toContain(outcome.status);
  });

  it("refuses a foreign Origin with 403", async () => {
    const outcome = await tryConnect(bridge.wsUrl, {
      headers: { [AUTH_HEADER]: bridge.token },
      origin: "http://evil.example",
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.status).toBe(403);
  });

  it("refuses a foreign Host (DNS rebinding)", async () => {
    const outcome = await tryConnect(bridge.wsUrl, {
      headers: { [AUTH_HEADER]: bridge.token, host: `evil.example:${bridge.port}` },
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.status).toBeGreaterThanOrEqual(400);
    if (!outcome.ok) expect(outcome.status).toBeLessThan(500);
  });

  it("accepts the right token on any path and selects the mcp subprotocol", async () => {
    const log = await open();
    expect(log.ws.protocol).toBe("mcp");
    const other = await tryConnect(`${bridge.url.replace("http", "ws")}/mcp`, { headers: { [AUTH_HEADER]: bridge.token } });
    expect(other.ok).toBe(true);
    if (other.ok) {
      sockets.push(other.ws);
      expect(other.ws.protocol).toBe("mcp");
    }
  });

  it("answers a non-JSON frame with -32700 and stays usable", async () => {
    const log = await open();
    log.ws.send("this is not json{");
    const err = await log.waitFor((m) => m.error?.code === -32700);
    expect(err.id ?? null).toBeNull();
    const init = await log.initialize(7);
    expect(init.result?.protocolVersion).toBe("2025-11-25");
    const ping = await log.request(8, "ping");
    expect(ping.result).toEqual({});
  });

  it("accepts the ide_connected notification without an error reply", async () => {
    const log = await open();
    await log.initialize(1);
    log.send({ jsonrpc: "2.0", method: "ide_connected", params: { pid: process.pid } });
    const ping = await log.request(2, "ping");
    expect(ping.result).toEqual({});
    expect(log.frames.filter((f) => "error" in f || "unparsable" in f)).toEqual([]);
  });

  it("closes the socket with 1009 on a 5 MB frame and keeps serving new connections", async () => {
    const log = await open();
    await log.initialize(1);
    const closed = waitForClose(log.ws, 10_000);
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "readFile", arguments: { path: "x".repeat(5 * 1024 * 1024) } },
    });
    log.ws.send(huge, () => undefined);
    const { code } = await closed;
    expect(code).toBe(1009);

    const again = await open();
    const init = await again.initialize(1);
    expect(init.result?.protocolVersion).toBe("2025-11-25");
  });
});
