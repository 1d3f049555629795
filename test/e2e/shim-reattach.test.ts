// Grace-period reattach through the shim: a TCP proxy between the shim and the bridge
// cuts the shim's connection while the bridge keeps running. Back within the grace period, the shim
// gets the same session (no initialize replayed); after it, a new session that the shim
// initializes itself. Also: the attach notice is opt-in, and two shims never share a session.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { stopAllBridges, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import WebSocket from "ws";
import { AUTH_HEADER, FrameLog } from "../helpers/ws-client.ts";
import { bridgeOn, health, makeHome, startShim, TcpProxy, type ShimProcess } from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
let bridge: BridgeProcess;
let proxy: TcpProxy;
const shims: ShimProcess[] = [];

beforeAll(async () => {
  home = await makeHome();
  // 5 s is the shortest grace period the bridge accepts.
  bridge = await bridgeOn(home, { args: ["--grace-period", "5000"] });
});
afterEach(async () => {
  for (const s of shims.splice(0)) await s.stop();
  await proxy?.cut();
});
afterAll(async () => {
  await stopAllBridges();
  await home?.remove();
});

async function shimViaProxy(): Promise<ShimProcess> {
  proxy = new TcpProxy(bridge.port);
  await proxy.listen();
  const shim = startShim({
    cwd: home.workspace,
    configDir: home.configDir,
    args: ["--port", String(proxy.port), "--token", bridge.token, "--verbose"],
  });
  shims.push(shim);
  await shim.initialize();
  return shim;
}

function sessionIds(shim: ShimProcess): string[] {
  return [...shim.stderr().matchAll(/bridge session ([0-9a-f-]+): (\w+)/g)].map((m) => `${m[1]} ${m[2]}`);
}

const call = (shim: ShimProcess, id: number) => shim.request(id, "tools/call", { name: "getWorkspaceFolders", arguments: {} }, 20_000);
/** A getWorkspaceFolders answer that really came from the bridge (not an error, not something else). */
const answeredFolders = (answer: { result?: Record<string, unknown> }) =>
  expect(answer.result?.structuredContent).toMatchObject({ success: true, rootPath: expect.any(String) });

it("reattaches within the grace period: same session, nothing replayed, queued calls answered", async () => {
  const shim = await shimViaProxy();
  answeredFolders(await call(shim, 1));
  await shim.request(2, "logging/setLevel", { level: "error" });
  const [first] = sessionIds(shim);
  expect(first).toMatch(/ new$/);

  await proxy.cut();
  await expect.poll(async () => (await health(bridge)).sessionsInGrace, { timeout: 5_000 }).toBe(1);
  shim.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "getWorkspaceFolders", arguments: {} } });
  await proxy.restore();

  const answer = await shim.waitFor((m) => m.id === 3, 15_000);
  answeredFolders(answer);
  const ids = sessionIds(shim);
  expect(ids[ids.length - 1]).toBe(`${first?.split(" ")[0]} resumed`);
  expect(shim.stderr()).not.toMatch(/replayed initialize/);
  expect(shim.junk).toEqual([]);
});

it("after the grace period the bridge makes a new session and the shim initializes it itself", async () => {
  const shim = await shimViaProxy();
  answeredFolders(await call(shim, 1));
  const [first] = sessionIds(shim);

  await proxy.cut();
  await expect.poll(async () => (await health(bridge)).sessionsInGrace, { timeout: 5_000 }).toBe(1);
  // Grace (5 s) runs out; the session is gone.
  await expect.poll(async () => (await health(bridge)).sessionsInGrace, { timeout: 10_000, interval: 250 }).toBe(0);
  await proxy.restore();

  const answer = await call(shim, 2);
  expect(answer.error).toBeUndefined();
  answeredFolders(answer);
  const ids = sessionIds(shim);
  const last = ids[ids.length - 1] ?? "";
  expect(last).toMatch(/ new$/);
  expect(last.split(" ")[0]).not.toBe(first?.split(" ")[0]);
  await expect.poll(() => shim.stderr()).toMatch(/replayed initialize on the new bridge session/);
  // The replayed initialize's answer is swallowed: the client saw exactly one initialize result.
  expect(shim.lines.filter((m) => (m.result as { serverInfo?: unknown } | undefined)?.serverInfo !== undefined)).toHaveLength(1);
  // A new session may offer other tools: the client is told to list them again.
  expect(shim.lines.some((m) => m.method === "notifications/tools/list_changed")).toBe(true);
}, 60_000); // 9 s quiet on three test workers

it("sends the attach notice only to sockets that ask for it", async () => {
  const open = async (notice: boolean) => {
    const headers: Record<string, string> = { [AUTH_HEADER]: bridge.token, "x-claude-code-session-id": randomUUID() };
    if (notice) headers["x-claude-ide-bridge-attach-notice"] = "1";
    // Listening before the handshake completes: the notice can come in the same packet as the 101.
    const ws = new WebSocket(bridge.wsUrl, ["mcp"], { headers });
    const log = new FrameLog(ws);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    return log;
  };
  const asked = await open(true);
  const plain = await open(false);
  const notice = await asked.waitFor((m) => m.method === "claude-ide-bridge/attached");
  expect(notice.params).toMatchObject({ resumed: false, initialized: false });
  expect(await plain.request(1, "ping")).toMatchObject({ result: {} });
  expect(plain.frames).toHaveLength(1);
  asked.ws.terminate();
  plain.ws.terminate();
});

it("two shims on one bridge get two sessions; neither takes over the other", async () => {
  const a = startShim({ cwd: home.workspace, configDir: home.configDir, args: ["--verbose"] });
  const b = startShim({ cwd: home.workspace, configDir: home.configDir, args: ["--verbose"] });
  shims.push(a, b);
  await Promise.all([a.initialize(), b.initialize()]);
  answeredFolders(await call(a, 1));
  answeredFolders(await call(b, 1));
  await expect.poll(() => sessionIds(a).length + sessionIds(b).length, { timeout: 3_000 }).toBe(2);
  expect(sessionIds(a)[0]?.split(" ")[0]).not.toBe(sessionIds(b)[0]?.split(" ")[0]);
  expect(a.stderr() + b.stderr()).not.toMatch(/code 4000/);
});
