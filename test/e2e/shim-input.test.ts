// The shim process on its own terms: bad stdin input is answered and survived; stdout
// carries only JSON-RPC; the queue is bounded; it gives up after --give-up-after with an error for
// each pending request; it exits on a refused token, on stdin end and on EPIPE; --spawn starts a
// bridge for the workspace.
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { processAlive } from "../../runtime/shared/process.ts";
import { stopAllBridges, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { bridgeOn, health, makeHome, startShim, type Json, type ShimProcess } from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
let bridge: BridgeProcess;
const shims: ShimProcess[] = [];
const extraHomes: Array<Awaited<ReturnType<typeof makeHome>>> = [];
const spawnLogs: string[] = [];

beforeAll(async () => {
  home = await makeHome();
  bridge = await bridgeOn(home);
});
afterEach(async () => {
  for (const s of shims.splice(0)) await s.stop();
  for (const h of extraHomes.splice(0)) {
    await killBridgesOf(h.configDir);
    await h.remove();
  }
  for (const log of spawnLogs.splice(0)) await rm(log, { force: true });
});
afterAll(async () => {
  await stopAllBridges();
  await home?.remove();
});

function shim(args: string[] = [], where = home): ShimProcess {
  const s = startShim({ cwd: where.workspace, configDir: where.configDir, args });
  shims.push(s);
  return s;
}

const errorOf = (m: Json) => m.error as { code: number; message: string; data: { reason: string } };

it("answers bad input (not JSON, not UTF-8, too large) with errors and keeps serving", async () => {
  const s = shim();
  await s.initialize();
  s.send("this is not json");
  s.send(Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0a]));
  // 5 MB, over the 4 MB frame limit; the id comes last, as the MCP SDK writes requests.
  s.send(
    `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"readFile","arguments":{"path":"${"x".repeat(5 * 1024 * 1024)}"}},"id":77}`,
  );
  s.send(`{"jsonrpc":"2.0","id":"big-first","method":"tools/call","params":{"pad":"${"y".repeat(4 * 1024 * 1024 + 10)}"}}`);
  s.send("42");
  s.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getWorkspaceFolders","arguments":{}}}\r');

  const ok = await s.waitFor((m) => m.id === 5);
  expect(ok).toMatchObject({ result: { structuredContent: { success: true } } });
  const nulls = s.lines.filter((m) => m.id === null).map((m) => errorOf(m));
  expect(nulls.map((e) => [e.code, e.data?.reason ?? "from bridge"])).toEqual([
    [-32700, "not_json"],
    [-32700, "not_utf8"],
    [-32600, "from bridge"], // "42" is JSON, so the bridge judged it: not a JSON-RPC object
  ]);
  expect(errorOf(await s.waitFor((m) => m.id === 77))).toMatchObject({ code: -32600, data: { reason: "too_large" } });
  expect(errorOf(await s.waitFor((m) => m.id === "big-first")).message).toMatch(/exceeds the bridge's 4194304-byte message limit/);
  // The bridge never saw the big lines (it would have closed the socket with 1009).
  expect(s.stderr()).not.toMatch(/connection closed/);
  expect(s.junk).toEqual([]);
  expect(s.proc.exitCode).toBeNull();
});

it("bounds the queue while no bridge is there, then gives up with an error for every pending request", async () => {
  const lonely = await makeHome();
  extraHomes.push(lonely);
  const s = shim(["--give-up-after", "2500"], lonely);
  for (let id = 1; id <= 1002; id++) s.send({ jsonrpc: "2.0", id, method: "ping" });
  const full = await s.waitFor((m) => m.id === 1002);
  expect(errorOf(full).data.reason).toBe("queue_full");
  expect(errorOf(s.lines.find((m) => m.id === 1001) as Json).data.reason).toBe("queue_full");

  // A client slow to read: nothing is taken from the shim's stdout from just before it gives up
  // until well after, and still every pending request gets its answer before the shim exits.
  s.proc.stdout?.pause();
  await expect.poll(() => s.stderr(), { timeout: 30_000 }).toMatch(/gave up/);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  s.proc.stdout?.resume();
  expect((await s.exited).code).toBe(1);
  const unreachable = s.lines.filter((m) => errorOf(m)?.data?.reason === "bridge_unreachable");
  expect(unreachable).toHaveLength(1000);
  expect(errorOf(unreachable[0] as Json)).toMatchObject({ code: -32000 });
  expect(s.stderr()).toMatch(/gave up: no bridge reachable for 2.5 s/);
  expect(s.stderr()).toMatch(/waiting for a bridge whose workspace contains/);
  expect(s.junk).toEqual([]);
});

it("exits with a clear message when the bridge refuses the token", async () => {
  const s = shim(["--port", String(bridge.port), "--token", "wrong-token-wrong-token"]);
  s.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x" } },
  });
  expect((await s.exited).code).toBe(1);
  expect(s.stderr()).toMatch(/refused the token \(HTTP 401/);
  expect(errorOf(s.lines.find((m) => m.id === 1) as Json).data.reason).toBe("bridge_refused");
});

it("exits 0 when stdin ends, after the answers still due, and its session ends with it (no grace)", async () => {
  const before = await health(bridge);
  const s = shim();
  await s.initialize();
  s.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "getWorkspaceFolders", arguments: {} } });
  s.proc.stdin?.end();
  expect((await s.exited).code).toBe(0);
  expect(s.lines.some((m) => m.id === 9 && m.result !== undefined)).toBe(true);
  // The shim closed with "client done": its session id dies with it, so the bridge keeps nothing.
  await expect.poll(async () => (await health(bridge)).activeSessions).toBe(before.activeSessions);
  expect((await health(bridge)).sessionsInGrace).toBe(before.sessionsInGrace);
  expect(bridge.stderr()).toMatch(/Claude Code WebSocket closed .*"code":1000/);
});

it("exits when its stdout is gone (EPIPE)", async () => {
  const s = shim();
  await s.initialize();
  s.proc.stdout?.destroy();
  s.send({ jsonrpc: "2.0", id: 2, method: "ping" });
  s.send({ jsonrpc: "2.0", id: 3, method: "ping" });
  expect((await s.exited).code).toBe(0);
});

it("--spawn starts a detached bridge for the workspace and connects to it", async () => {
  const fresh = await makeHome();
  extraHomes.push(fresh);
  const s = shim(["--spawn", "--", "--grace-period", "5000"], fresh);
  const init = await s.initialize();
  expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe("claude-ide-bridge");
  const folders = await s.request(2, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
  expect(JSON.stringify(folders.result)).toContain(fresh.workspace);
  expect(s.stderr()).toMatch(/started a bridge for .* \(pid \d+/);
  expect(await bridgePids(fresh.configDir)).toHaveLength(1);
  const log = /log (\/\S+)\)/.exec(s.stderr())?.[1];
  if (log) spawnLogs.push(log);
}, 30_000);

async function bridgePids(configDir: string): Promise<number[]> {
  const dir = join(configDir, "ide");
  const names = await readdir(dir).catch(() => []);
  const pids: number[] = [];
  for (const name of names) {
    if (!name.endsWith(".lock")) continue;
    const lock = JSON.parse(await readFile(join(dir, name), "utf8")) as { pid: number };
    pids.push(lock.pid);
  }
  return pids;
}

/** Bridges started by --spawn are not the helper's children: stop them by their lock's pid. */
async function killBridgesOf(configDir: string): Promise<void> {
  for (const pid of await bridgePids(configDir)) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      continue;
    }
    // A bridge's orderly stop took over 5 s at load 30.
    await expect.poll(() => processAlive(pid), { timeout: 30_000, interval: 50 }).toBe(false);
  }
}
