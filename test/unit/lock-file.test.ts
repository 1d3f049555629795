import { spawn } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { Runtime } from "../../src/runtime.ts";
import { BridgeError } from "../../src/errors.ts";
import { cleanStaleLocks, lockDir, writeLockFile, type LockFileInfo } from "../../src/lock/lock-file.ts";

const isLinux = process.platform === "linux";
const INFO: LockFileInfo = {
  port: 41234,
  workspace: "/w/project",
  workspaceFolders: ["/w/project"],
  ideName: "claude-ide-bridge",
  authToken: "0123456789abcdef0123456789abcdef",
};

let base: string;
let dir: string;
let runtime: Runtime;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "cib-lock-"));
  dir = join(base, "config", "ide");
  runtime = { ...createNodeRuntime(), env: { CLAUDE_CONFIG_DIR: join(base, "config") } };
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The pid of a process that has exited (and was reaped), so it is dead. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  const pid = child.pid;
  if (pid === undefined) throw new Error("no pid");
  expect(runtime.processAlive(pid)).toBe(false);
  return pid;
}

async function plant(name: string, content: unknown): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content), { mode: 0o600 });
  return path;
}

async function lockError(promise: Promise<unknown>): Promise<BridgeError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof BridgeError)) throw new Error(`expected a BridgeError, got ${String(err)}`);
  return err;
}

describe("lockDir", () => {
  it("uses CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    expect(lockDir(runtime)).toBe(dir);
    const plain = { ...runtime, env: {}, paths: { ...runtime.paths, home: "/home/me" } };
    expect(lockDir(plain)).toBe("/home/me/.claude/ide");
    expect(lockDir({ ...plain, env: { CLAUDE_CONFIG_DIR: "" } })).toBe("/home/me/.claude/ide");
  });
});

describe("writeLockFile", () => {
  it("writes a 0600 lock with Claude Code's fields in a 0700 directory", async () => {
    const before = Date.now();
    const lock = await writeLockFile(runtime, INFO);
    expect(lock.path).toBe(join(dir, "41234.lock"));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(lock.path)).mode & 0o777).toBe(0o600);

    const json: Record<string, unknown> = JSON.parse(await readFile(lock.path, "utf8"));
    expect(Object.keys(json).sort()).toEqual(
      ["authToken", "ideName", "isBridge", "nonce", "pid", "runningInWindows", "startedAt", "transport", "workspace", "workspaceFolders"].sort(),
    );
    expect(json).toMatchObject({
      pid: process.pid,
      workspace: "/w/project",
      workspaceFolders: ["/w/project"],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: INFO.authToken,
      isBridge: true,
      runningInWindows: false,
    });
    expect(json.nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(json.startedAt).toBeGreaterThanOrEqual(before);
    expect(json.startedAt).toBeLessThanOrEqual(Date.now());

    await lock.remove();
    await expect(stat(lock.path)).rejects.toThrow(/ENOENT/);
    await lock.remove();
  });

  it("tightens an existing directory with looser bits to 0700", async () => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o755);
    await writeLockFile(runtime, INFO);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("refuses a port whose lock belongs to a live process, and leaves that lock alone", async () => {
    const content = { pid: process.ppid, ideName: "VS Code", transport: "ws", workspaceFolders: ["/x"] };
    const path = await plant("41234.lock", content);
    const err = await lockError(writeLockFile(runtime, INFO));
    expect(err.code).toBe("lock_failed");
    expect(err.message).toContain(`running process ${process.ppid}`);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(content);
  });

  it("replaces a lock left by a dead process", async () => {
    await plant("41234.lock", { pid: await deadPid(), startedAt: Date.now() - 1000, nonce: "old", isBridge: true });
    const lock = await writeLockFile(runtime, INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, isBridge: true });
  });

  it("replaces an unreadable lock on its own port", async () => {
    await plant("41234.lock", "{not json");
    const lock = await writeLockFile(runtime, INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid });
  });

  it.runIf(isLinux)("replaces a lock whose pid was reused by a younger process", async () => {
    await plant("41234.lock", { pid: process.pid, startedAt: Date.now() - 3 * 3600_000, isBridge: true });
    const lock = await writeLockFile(runtime, INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8")).startedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it("does not follow a symlink planted at the lock path", async () => {
    const target = join(base, "victim.txt");
    await writeFile(target, "precious", { mode: 0o644 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await symlink(target, join(dir, "41234.lock"));

    const lock = await writeLockFile(runtime, INFO);
    expect(await readFile(target, "utf8")).toBe("precious");
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    const st = await lstat(lock.path);
    expect(st.isSymbolicLink()).toBe(false);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it("remove() keeps a lock that is no longer ours", async () => {
    const lock = await writeLockFile(runtime, INFO);
    const theirs = { ...JSON.parse(await readFile(lock.path, "utf8")), nonce: "someone-else" };
    await writeFile(lock.path, JSON.stringify(theirs));
    await lock.remove();
    expect(JSON.parse(await readFile(lock.path, "utf8")).nonce).toBe("someone-else");
  });
});

describe("cleanStaleLocks", () => {
  it("returns [] when the directory does not exist", async () => {
    expect(await cleanStaleLocks(runtime)).toEqual([]);
  });

  it("removes dead and unreadable locks, never live ones or other files", async () => {
    const dead = await plant("1111.lock", { pid: await deadPid(), startedAt: Date.now(), isBridge: true });
    const liveIde = await plant("2222.lock", { pid: process.ppid, ideName: "VS Code", transport: "ws" });
    const liveBridge = await plant("3333.lock", { pid: process.pid, startedAt: Date.now() - 5000, isBridge: true });
    const garbageOld = await plant("4444.lock", "{half");
    const old = new Date(Date.now() - 60_000);
    await utimes(garbageOld, old, old);
    const garbageNew = await plant("5555.lock", "{being written");
    const noPid = await plant("6666.lock", { ideName: "x" });
    await utimes(noPid, old, old);
    const windows = await plant("7777.lock", { pid: await deadPid(), runningInWindows: true });
    const other = await plant("config.json", "{}");
    const ours = await writeLockFile(runtime, { ...INFO, port: 8888 });

    const removed = await cleanStaleLocks(runtime);
    expect(removed.sort()).toEqual([dead, garbageOld, noPid].sort());
    // The Windows IDE's pid means nothing here, so its lock stays too.
    const kept = [liveIde, liveBridge, garbageNew, windows, other, ours.path].map((p) => p.slice(dir.length + 1));
    expect((await readdir(dir)).sort()).toEqual(kept.sort());
  });

  it.runIf(isLinux)("removes a live pid's lock when that process started long after the lock", async () => {
    const reused = await plant("1234.lock", { pid: process.pid, startedAt: Date.now() - 3 * 3600_000, isBridge: true });
    const fine = await plant("1235.lock", { pid: process.pid, startedAt: Date.now() - 1000, isBridge: true });
    expect(await cleanStaleLocks(runtime)).toEqual([reused]);
    await expect(stat(fine)).resolves.toBeDefined();
  });
});
