// Grace-period reattach over the real WebSocket: a client that reconnects with the same
// x-claude-code-session-id keeps its initialized session; another id starts from scratch.
import { randomUUID } from "node:crypto";
import type WebSocket from "ws";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { AUTH_HEADER, FrameLog, tryConnect, waitForClose } from "../helpers/ws-client.ts";

let bridge: BridgeProcess;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  bridge = await startBridgeProcess({ args: ["--grace-period", "60000"] });
});
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate();
});
afterAll(async () => {
  await bridge?.stop();
});

async function open(sessionId?: string): Promise<FrameLog> {
  const headers: Record<string, string> = { [AUTH_HEADER]: bridge.token };
  if (sessionId) headers["x-claude-code-session-id"] = sessionId;
  const outcome = await tryConnect(bridge.wsUrl, { headers });
  if (!outcome.ok) throw new Error(`upgrade refused: ${outcome.status} ${outcome.body}`);
  outcome.ws.on("error", () => undefined);
  sockets.push(outcome.ws);
  return new FrameLog(outcome.ws);
}

async function health(): Promise<Record<string, number>> {
  const response = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
  return (await response.json()) as Record<string, number>;
}

it("reattaches within the grace period without a new initialize", async () => {
  const id = randomUUID();
  const first = await open(id);
  await first.initialize();
  const folders = await first.request(2, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
  // On the lock file's socket Claude Code's IDE link answers as VS Code's own tool does: JSON as text.
  const text = (folders.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text ?? "";
  expect(JSON.parse(text), JSON.stringify(folders)).toMatchObject({ success: true, rootPath: bridge.workspace });
  first.ws.close();
  await waitForClose(first.ws).catch(() => undefined);
  await expect.poll(async () => (await health()).sessionsInGrace).toBe(1);

  const second = await open(id);
  const listed = await second.request(3, "tools/list");
  expect(listed.error).toBeUndefined();
  expect((listed.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  expect((await health()).sessionsInGrace).toBe(0);

  const stranger = await open(randomUUID());
  const refused = await stranger.request(1, "tools/list");
  expect(refused.error).toMatchObject({ code: -32600 });
});

it("hands the session to a newer socket and closes the older one with 4000", async () => {
  const id = randomUUID();
  const older = await open(id);
  await older.initialize();
  const closed = waitForClose(older.ws);
  const newer = await open(id);
  expect((await closed).code).toBe(4000);
  expect((await newer.request(2, "ping")).result).toEqual({});
});

it("refuses a malformed session id with 400", async () => {
  const outcome = await tryConnect(bridge.wsUrl, { headers: { [AUTH_HEADER]: bridge.token, "x-claude-code-session-id": "bad id!" } });
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) expect(outcome.status).toBe(400);
});
