// The shim starting its own bridge, driven directly: rooted at the project around the
// current directory when no CLAUDE_PROJECT_DIR names one; a bridge that cannot start reported with
// its own words at once; with --no-spawn and no bridge, every request answered with the reason;
// `server/discover` answered -32601 before any bridge is there; and a spawned bridge that exits by
// itself once it has had no session for --idle-timeout. Spawned bridges are stopped with
// `claude-ide-bridge stop`, or killed by the pid in their lock when a test failed first.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { running as processRunning } from "../helpers/process-running.ts";
import { makeHome, runCli, startShim, type Json } from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
beforeEach(async () => {
  home = await makeHome();
});
afterEach(async () => {
  for (const lock of await bridgeLocks()) {
    try {
      process.kill(lock.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  await home.remove();
});

async function bridgeLocks(): Promise<Array<{ pid: number; workspace: string; path: string }>> {
  const dir = join(home.configDir, "ide");
  const names = (await readdir(dir).catch(() => [])).filter((n) => /^\d+\.lock$/.test(n));
  return Promise.all(
    names.map(async (n) => ({
      ...(JSON.parse(await readFile(join(dir, n), "utf8")) as { pid: number; workspace: string }),
      path: join(dir, n),
    })),
  );
}

/** Not inside a Claude Code session of whoever runs the tests: the shim must find the project itself. */
const NO_PROJECT_DIR = { CLAUDE_PROJECT_DIR: "" };
const errorOf = (m: Json) => m.error as { code: number; message: string; data: Record<string, unknown> };

it("starts a bridge rooted at the project around the current directory, and answers initialize through it", async () => {
  const sub = join(home.workspace, "src");
  const shim = startShim({ cwd: sub, configDir: home.configDir, spawn: true, env: NO_PROJECT_DIR });
  try {
    const init = await shim.initialize();
    expect(init.result, JSON.stringify(init)).toMatchObject({ serverInfo: { name: "claude-ide-bridge" } });
    const folders = await shim.request(2, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
    expect(JSON.stringify(folders)).toContain(home.workspace);
    expect((await bridgeLocks()).map((l) => l.workspace)).toEqual([home.workspace]);
    expect(shim.stderr()).toMatch(/started a bridge for .* \(pid \d+, log .*claude-ide-bridge-[0-9a-f]+\.log\)/);
  } finally {
    await shim.stop();
  }
  const stop = await runCli(["stop"], { cwd: home.workspace, configDir: home.configDir });
  expect(stop.code, stop.stderr).toBe(0);
  expect(stop.stderr).toMatch(/stopped the bridge on port \d+ \(pid \d+, POST \/shutdown\)/);
  expect(await bridgeLocks()).toEqual([]);
});

it("answers initialize with the reason at once when the bridge it started exits", async () => {
  const shim = startShim({ cwd: home.workspace, configDir: home.configDir, spawn: true, args: ["--", "--no-such-bridge-flag"] });
  try {
    const init = await shim.initialize();
    expect(errorOf(init)).toMatchObject({ code: -32000, data: { reason: "bridge_unreachable" } });
    expect(errorOf(init).message).toMatch(
      /the bridge started for .* exited with code 2: claude-ide-bridge: unknown option --no-such-bridge-flag/,
    );
    expect(errorOf(init).message).toMatch(/reconnect this server/);
  } finally {
    await shim.stop();
  }
});

it("with --no-spawn and no bridge: server/discover gets -32601 at once, initialize and every later request the reason", async () => {
  const shim = startShim({ cwd: home.workspace, configDir: home.configDir, args: ["--connect-timeout", "1000"] });
  try {
    const discover = await shim.request("probe", "server/discover", {});
    expect(errorOf(discover)).toMatchObject({ code: -32601, data: { reason: "legacy_protocol" } });
    const init = await shim.initialize();
    expect(errorOf(init).message).toMatch(
      /no bridge serves .* this server may not start one \(no-spawn\); start one with `claude-ide-bridge --workspace /,
    );
    const later = await shim.request(3, "tools/list");
    expect(errorOf(later).message).toBe(errorOf(init).message);
  } finally {
    await shim.stop();
  }
});

it("a bridge it started exits by itself once no session has been left for --idle-timeout", async () => {
  await mkdir(join(home.workspace, ".git"));
  const shim = startShim({ cwd: home.workspace, configDir: home.configDir, spawn: true, args: ["--idle-timeout", "1000"] });
  const init = await shim.initialize();
  expect(init.result, JSON.stringify(init)).toBeDefined();
  // initialize may be answered by the shim before the bridge is up (src/startup/predicted-initialize.ts):
  // a call is answered only through the bridge, whose lock then exists.
  expect(await shim.request(2, "tools/list", {}, 60_000)).toHaveProperty("result");
  const [lock] = await bridgeLocks();
  if (lock === undefined) throw new Error("no bridge lock");
  // The shim ends its session as it exits (stdin closed); the bridge then has none.
  shim.proc.stdin?.end();
  await shim.exited;
  await expect.poll(() => processRunning(lock.pid), { timeout: 20_000, interval: 100 }).toBe(false);
  expect(await bridgeLocks()).toEqual([]);
});
