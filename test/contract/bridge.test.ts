// The bridge's contract on every runtime: the same CLI started under node, bun and deno
// (README, "Runtimes") answers the same way over the wire — /health, MCP over Streamable HTTP,
// MCP over the Claude Code WebSocket, the lock file Claude Code discovers it by, and a clean
// SIGTERM. Only observable behaviour is checked; nothing here knows which runtime it talks to.
import { readFile, readlink, stat } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectOrThrow, FrameLog, tryConnect, waitForClose } from "../helpers/ws-client.ts";
import { startFixtureBridge, type FixtureBridge } from "./bridge-fixture.ts";
import { stopAll } from "./process.ts";
import { assertRuntimesInstalled, executablePattern, RUNTIMES } from "./runtimes.ts";

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

describe.each(RUNTIMES)("the bridge on %s", (runtime) => {
  let bridge: FixtureBridge;

  beforeAll(async () => {
    bridge = await startFixtureBridge(runtime);
  });

  afterAll(async () => {
    await bridge?.stop();
    await bridge?.cleanup();
  });

  it(`writes the lock file Claude Code reads: its fields, mode 0600 in a 0700 directory, a ${runtime} pid`, async () => {
    const lock = JSON.parse(await readFile(bridge.lockPath, "utf8")) as Record<string, unknown>;
    expect(lock).toEqual({
      pid: expect.any(Number),
      startedAt: expect.any(Number),
      nonce: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspace: bridge.workspace,
      workspaceFolders: [bridge.workspace],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: bridge.token,
      isBridge: true,
      runningInWindows: false,
    });
    expect((await stat(bridge.lockPath)).mode & 0o777).toBe(0o600);
    expect((await stat(`${bridge.configDir}/ide`)).mode & 0o777).toBe(0o700);
    // The pid in the lock is the bridge itself, and the bridge really runs on this runtime.
    expect(lock.pid).toBe(bridge.process.proc.pid);
    expect(await readlink(`/proc/${String(lock.pid)}/exe`)).toMatch(executablePattern(runtime));
  });

  it("answers /health with a bearer token, and 401 without", async () => {
    const ok = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "ok", workspace: bridge.workspace, tools: expect.any(Number) });
    expect((await fetch(`${bridge.url}/health`)).status).toBe(401);
  });

  it("speaks MCP over Streamable HTTP: initialize, tools/list, tools/call", async () => {
    const client = new Client({ name: `contract-http-${runtime}`, version: "0.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe("claude-ide-bridge");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["readFile", "getWorkspaceFolders", "getFileTree"]));
      const read = await client.callTool({ name: "readFile", arguments: { path: "src/index.ts" } });
      expect(read.isError ?? false).toBe(false);
      expect(textOf(read)).toContain("export function greet");
    } finally {
      await client.close();
    }
  });

  it("speaks MCP over the Claude Code WebSocket: auth header, subprotocol mcp, a tool call", async () => {
    const refused = await tryConnect(bridge.wsUrl);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.status).toBe(401);

    const ws = await connectOrThrow(bridge.wsUrl, bridge.token);
    try {
      expect(ws.protocol).toBe("mcp");
      const log = new FrameLog(ws);
      const init = await log.initialize();
      expect(init.result).toMatchObject({ serverInfo: { name: "claude-ide-bridge" } });
      const listed = await log.request(2, "tools/list");
      expect(JSON.stringify(listed.result)).toContain("getWorkspaceFolders");
      const called = await log.request(3, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
      expect(called.result?.isError ?? false).toBe(false);
      expect(JSON.stringify(called.result)).toContain(bridge.workspace);
    } finally {
      ws.close();
    }
  });

  it("on SIGTERM closes sockets with 1001, removes the lock and exits 0, having written nothing to stdout", async () => {
    const ws = await connectOrThrow(bridge.wsUrl, bridge.token);
    ws.on("error", () => undefined);
    const closing = waitForClose(ws, 10_000);
    const exit = await bridge.stop("SIGTERM");
    expect((await closing).code).toBe(1001);
    expect(exit).toEqual({ code: 0, signal: null });
    await expect(stat(bridge.lockPath)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(fetch(`${bridge.url}/health`)).rejects.toThrow();
    expect(bridge.process.stdout()).toBe("");
  });
});
