// The shim hides bridge restarts from an MCP client: an SDK stdio client keeps calling
// tools across a kill -9 of the bridge and its restart, on the same port (the session comes back
// from the checkpoint) and on a new port (the shim replays initialize on a new session). A call in
// flight during the kill gets an error, not a hang and not a retry.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { stopAllBridges } from "../helpers/spawn-bridge.ts";
import {
  bridgeOn,
  killHard,
  makeHome,
  resultText,
  sdkThroughShim,
  startSdkThroughShim,
  unreadBytesAt,
  type ShimClient,
} from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
const clients: ShimClient[] = [];

beforeAll(async () => {
  home = await makeHome();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await stopAllBridges();
});
afterAll(async () => {
  await home?.remove();
});

async function connect(): Promise<ShimClient> {
  const c = await sdkThroughShim({ cwd: home.workspace, configDir: home.configDir });
  clients.push(c);
  return c;
}

async function folders(c: ShimClient): Promise<string> {
  return resultText(await c.client.callTool({ name: "getWorkspaceFolders", arguments: {} }));
}

async function checkpointSessions(port: number): Promise<number> {
  try {
    const json = JSON.parse(await readFile(join(home.configDir, "ide", `checkpoint-${port}.json`), "utf8")) as { sessions: unknown[] };
    return json.sessions.length;
  } catch {
    return 0;
  }
}

it("keeps the client's session across kill -9 and a restart on the same port; the call in flight gets an error", async () => {
  const first = await bridgeOn(home);
  const c = await connect();
  expect(await folders(c)).toContain(home.workspace);
  await c.client.setLoggingLevel("warning");
  // The checkpoint (checked every 250 ms) must have the session before the crash.
  await expect.poll(() => checkpointSessions(first.port), { timeout: 8_000, interval: 200 }).toBe(1);

  // Freeze the bridge, send a call, and kill the bridge once the call sits unread in its socket.
  first.proc.kill("SIGSTOP");
  const inFlight = c.client.callTool({ name: "getWorkspaceFolders", arguments: {} }).then(
    () => new Error("the call in flight resolved"),
    (err: unknown) => err,
  );
  await expect.poll(() => unreadBytesAt(first.port), { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
  await killHard(first);
  const lost = await inFlight;
  expect(lost).toBeInstanceOf(McpError);
  expect((lost as McpError).code).toBe(-32000);
  expect((lost as McpError).message).toMatch(/lost while tools\/call was in flight.*not retried/);

  const restartedAt = Date.now();
  const second = await bridgeOn(home, { port: first.port });
  expect(second.stderr()).toMatch(/restored 1 session\(s\) from the checkpoint/);
  expect(await folders(c)).toContain(home.workspace);
  console.log(`same port: bridge restart (process start) to first successful call through the shim: ${Date.now() - restartedAt} ms`);

  // stderr and stdout are separate pipes: the log line may arrive a little after the answer.
  await expect.poll(() => c.stderr()).toMatch(/bridge session [0-9a-f-]+: resumed, initialized/);
  expect(c.stderr()).not.toMatch(/replayed initialize/);
  expect(second.stderr()).toMatch(/Claude Code reconnected over WebSocket/);
  expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
});

it("replays initialize when the bridge comes back on a new port, and the client never sees 'not initialized'", async () => {
  const first = await bridgeOn(home);
  const c = await connect();
  expect(await folders(c)).toContain(home.workspace);
  await killHard(first);

  const restartedAt = Date.now();
  const second = await bridgeOn(home);
  expect(second.port).not.toBe(first.port);
  // Sent right away: the shim queues it until it has found the new lock and replayed initialize.
  expect(await folders(c)).toContain(home.workspace);
  console.log(`new port: bridge restart (process start) to first successful call through the shim: ${Date.now() - restartedAt} ms`);

  await expect.poll(() => c.stderr()).toMatch(/replayed initialize on the new bridge session/);
  expect(c.stderr()).toMatch(/bridge session [0-9a-f-]+: new\n/);
  expect(second.stderr()).toMatch(/Claude Code connected over WebSocket/);
  expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
  expect(await folders(c)).toContain(home.workspace);
});

it("waits for a bridge that starts after the shim (the client's initialize is answered then)", async () => {
  const shim = startSdkThroughShim({ cwd: home.workspace, configDir: home.configDir });
  await expect.poll(() => shim.stderr(), { timeout: 10_000, interval: 20 }).toMatch(/waiting for a bridge whose workspace contains/);
  await bridgeOn(home);
  const c = await shim.connected;
  clients.push(c);
  expect(await folders(c)).toContain(home.workspace);
});
