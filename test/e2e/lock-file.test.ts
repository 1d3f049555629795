// The IDE lock file Claude Code discovers the bridge by: $CLAUDE_CONFIG_DIR/ide/<port>.lock
// (protocol.md A1): written 0600 in a 0700 dir, removed on SIGTERM, stale ones cleaned at start.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const started: BridgeProcess[] = [];
const tempDirs: string[] = [];

afterEach(async () => {
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

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  const pid = child.pid;
  await new Promise((resolve) => child.once("exit", resolve));
  if (pid === undefined) throw new Error("could not spawn a short-lived process");
  return pid;
}

/** Polls `check` for up to `ms` (the lock may be written just after the listening line). */
async function eventually(check: () => boolean, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function lockPath(b: BridgeProcess): string {
  return join(b.configDir, "ide", `${b.port}.lock`);
}

describe("lock file", () => {
  it("is written with mode 0600 in a 0700 dir, with the IDE fields", async () => {
    const b = await start();
    const file = lockPath(b);
    expect(await eventually(() => existsSync(file)), `${file} missing`).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(b.configDir, "ide"))).mode & 0o777).toBe(0o700);

    const lock = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(lock["pid"]).toBe(b.proc.pid);
    expect(lock["startedAt"]).toBeDefined();
    const startedAt = new Date(lock["startedAt"] as string | number).getTime();
    expect(Math.abs(Date.now() - startedAt)).toBeLessThan(120_000);
    expect(lock["workspace"]).toBe(b.workspace);
    expect(lock["workspaceFolders"]).toEqual([b.workspace]);
    expect(lock["ideName"]).toBeTypeOf("string");
    expect(lock["ideName"]).not.toBe("");
    expect(lock["transport"]).toBe("ws");
    expect(lock["authToken"]).toBe(b.token);
    expect(lock["isBridge"]).toBe(true);
    expect(lock["runningInWindows"]).toBe(false);
  });

  it("is removed after SIGTERM, and the process exits cleanly", async () => {
    const configDir = await tempConfigDir();
    const b = await start({ configDir });
    const file = lockPath(b);
    expect(await eventually(() => existsSync(file)), `${file} missing`).toBe(true);
    const exit = await b.stop("SIGTERM");
    expect(exit.signal, `killed by ${exit.signal}; stderr:\n${b.stderr()}`).toBeNull();
    expect(exit.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    // stdout belongs to MCP when a shim relays it: the bridge logs on stderr only.
    expect(b.stdout()).toBe("");
    expect(b.stderr()).toMatch(/shutting down/);
  });

  it("cleans a stale bridge lock (dead pid) at start and leaves a live IDE's lock alone", async () => {
    const configDir = await tempConfigDir();
    const ideDir = join(configDir, "ide");
    await mkdir(ideDir, { recursive: true, mode: 0o700 });
    const workspace = await realpath(await mkdtemp(join(tmpdir(), "bridge-ws-")));
    tempDirs.push(workspace);

    const stale = join(ideDir, "65001.lock");
    await writeFile(
      stale,
      JSON.stringify({
        pid: await deadPid(),
        startedAt: Date.now() - 60_000,
        workspace,
        workspaceFolders: [workspace],
        ideName: "claude-ide-bridge",
        transport: "ws",
        authToken: "0".repeat(48),
        isBridge: true,
        runningInWindows: false,
      }),
      { mode: 0o600 },
    );
    // A lock of another, living IDE (this test process) must survive.
    const live = join(ideDir, "65002.lock");
    await writeFile(
      live,
      JSON.stringify({
        pid: process.pid,
        workspaceFolders: [workspace],
        ideName: "Other IDE",
        transport: "ws",
        authToken: "1".repeat(48),
      }),
      { mode: 0o600 },
    );

    const b = await start({ configDir, workspace });
    expect(await eventually(() => existsSync(lockPath(b)))).toBe(true);
    expect(await eventually(() => !existsSync(stale)), "stale lock of a dead bridge still present").toBe(true);
    expect(existsSync(live), "live IDE's lock was removed").toBe(true);
  });
});
