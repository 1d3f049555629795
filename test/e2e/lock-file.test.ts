// The IDE lock file Claude Code discovers the bridge by: $CLAUDE_CONFIG_DIR/ide/<port>.lock
// (protocol.md A1): written 0600 in a 0700 dir, written again when deleted while the bridge runs,
// removed on SIGTERM, stale ones cleaned at start; and ghost locks passed over by the shim,
// `status` and `print-token`, real processes all.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { runCli, startShim, type ShimProcess } from "./shim-support.ts";

const started: BridgeProcess[] = [];
const shims: ShimProcess[] = [];
const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(shims.splice(0).map((s) => s.stop()));
  await Promise.all(started.splice(0).map((b) => b.stop()));
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(opts: Parameters<typeof startBridgeProcess>[0] = {}): Promise<BridgeProcess> {
  const b = await startBridgeProcess(opts);
  started.push(b);
  return b;
}

async function tempConfigDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "bridge-cfg-")));
  tempDirs.push(dir);
  return dir;
}

/** A process that has exited and been reaped: its pid is dead. */
const DEAD_PID = spawnSync(process.execPath, ["-e", "0"]).pid;

/** The lock may be written just after the "listening" line. */
const POLL = { timeout: 5_000, interval: 25 };

function lockPath(b: BridgeProcess): string {
  return join(b.configDir, "ide", `${b.port}.lock`);
}

describe("lock file", () => {
  it("is written with mode 0600 in a 0700 dir, with the IDE fields", async () => {
    const b = await start();
    const file = lockPath(b);
    await expect.poll(() => existsSync(file), POLL).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(b.configDir, "ide"))).mode & 0o777).toBe(0o700);

    const lock = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(lock.pid).toBe(b.proc.pid);
    expect(lock.startedAt).toBeDefined();
    const startedAt = new Date(lock.startedAt as string | number).getTime();
    expect(Math.abs(Date.now() - startedAt)).toBeLessThan(120_000);
    expect(lock.workspace).toBe(b.workspace);
    expect(lock.workspaceFolders).toEqual([b.workspace]);
    expect(lock.ideName).toBeTypeOf("string");
    expect(lock.ideName).not.toBe("");
    expect(lock.transport).toBe("ws");
    expect(lock.authToken).toBe(b.token);
    expect(lock.isBridge).toBe(true);
    expect(lock.runningInWindows).toBe(false);
  });

  it("is removed after SIGTERM, and the process exits cleanly", async () => {
    const configDir = await tempConfigDir();
    const b = await start({ configDir });
    const file = lockPath(b);
    await expect.poll(() => existsSync(file), POLL).toBe(true);
    const exit = await b.stop("SIGTERM");
    expect(exit.signal, `killed by ${exit.signal}; stderr:\n${b.stderr()}`).toBeNull();
    expect(exit.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    // stdout belongs to MCP when a shim relays it: the bridge logs on stderr only.
    expect(b.stdout()).toBe("");
    expect(b.stderr()).toMatch(/shutting down/);
  });

  it("is written again, same content, when deleted while the bridge runs; status and a new shim find it", async () => {
    const b = await start();
    const file = lockPath(b);
    await expect.poll(() => existsSync(file), POLL).toBe(true);
    const before = await readFile(file, "utf8");
    await rm(file);
    await expect.poll(() => readFile(file, "utf8").catch(() => ""), POLL).toBe(before);

    const report = await runCli(["status", "--json"], { cwd: b.workspace, configDir: b.configDir });
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ healthy: true, chosenPort: b.port, bridges: [{ port: b.port, alive: true }] });
    const shim = startShim({ cwd: b.workspace, configDir: b.configDir });
    shims.push(shim);
    expect(await shim.initialize()).toHaveProperty("result.serverInfo");
    expect(shim.stderr()).toContain(`connected to the bridge on port ${b.port}`);
  });

  it("a shim, status and print-token pass over a newer ghost lock (pid 0) and reach the live bridge", async () => {
    const b = await start();
    await expect.poll(() => existsSync(lockPath(b)), POLL).toBe(true);
    // kill(0, 0) succeeds, so the shim once took this for a live bridge and waited on it for ever.
    const ghost = join(b.configDir, "ide", "1.lock");
    await writeFile(
      ghost,
      JSON.stringify({ pid: 0, workspaceFolders: [b.workspace], transport: "ws", authToken: "0".repeat(48), isBridge: true }),
      { mode: 0o600 },
    );
    const future = new Date(Date.now() + 60_000);
    await utimes(ghost, future, future);

    const shim = startShim({ cwd: b.workspace, configDir: b.configDir });
    shims.push(shim);
    expect(await shim.initialize()).toHaveProperty("result.serverInfo");
    expect(shim.stderr()).toContain(`connected to the bridge on port ${b.port}`);
    const token = await runCli(["print-token"], { cwd: b.workspace, configDir: b.configDir });
    expect(token.stdout).toBe(`${b.token}\n`);
    const report = JSON.parse((await runCli(["status", "--json", "--port", "1"], { cwd: b.workspace, configDir: b.configDir })).stdout);
    expect(report).toMatchObject({ chosenPort: b.port, bridges: [{ port: 1, alive: false, problem: "dead" }] });
  });

  it("cleans stale locks at start (dead, no usable pid) and leaves live and Windows IDEs' locks alone", async () => {
    const configDir = await tempConfigDir();
    const ideDir = join(configDir, "ide");
    await mkdir(ideDir, { recursive: true, mode: 0o700 });
    const workspace = await makeWorkspace();
    tempDirs.push(workspace);
    const lock = (fields: Record<string, unknown>) => ({
      workspaceFolders: [workspace],
      transport: "ws",
      authToken: "0".repeat(48),
      isBridge: true,
      ...fields,
    });
    const plant = async (port: number, fields: Record<string, unknown>) => {
      const path = join(ideDir, `${port}.lock`);
      await writeFile(path, JSON.stringify(lock(fields)), { mode: 0o600 });
      return path;
    };
    const stale = [
      await plant(65001, { pid: DEAD_PID, startedAt: Date.now() - 60_000 }),
      await plant(65002, { pid: 0 }),
      await plant(65003, { pid: -1 }),
      await plant(65004, {}),
      await plant(65005, { pid: String(process.pid) }),
    ];
    // Live: another IDE (this test process), with no token or another transport; a Windows IDE's.
    const kept = [
      await plant(65011, { pid: process.pid, ideName: "Other IDE", isBridge: false }),
      await plant(65012, { pid: process.pid, authToken: "" }),
      await plant(65013, { pid: process.pid, transport: "sse" }),
      await plant(65014, { pid: DEAD_PID, runningInWindows: true }),
    ];

    const b = await start({ configDir, workspace });
    await expect.poll(() => existsSync(lockPath(b)), POLL).toBe(true);
    expect(
      stale.filter((path) => existsSync(path)),
      "stale locks still present",
    ).toEqual([]);
    expect(
      kept.filter((path) => !existsSync(path)),
      "live locks removed",
    ).toEqual([]);
  });
});
