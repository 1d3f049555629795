// The IDE lock file (protocol.md A1) on real files and the real process table: the cases where the
// shim, `status`, `print-token` and the bridge's stale-lock cleaning used to disagree (each run
// through all four), writing our lock, the guard that writes it again when it is deleted, and the
// cleaning of other processes' stale locks. A dead pid is that of a child started here that has
// exited. The shared rules alone are in test/unit/lock/lock-rules.test.ts.
import { spawnSync } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { findTarget, realDirectory } from "../../../shim/discovery.ts";
import type { CommandContext } from "../../../src/cli/command-io.ts";
import { printToken } from "../../../src/cli/print-token.ts";
import { status } from "../../../src/cli/status.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { BridgeError } from "../../../src/errors.ts";
import {
  cleanStaleLocks,
  lockDir,
  writeLockFile,
  type LockFileHandle,
  type LockFileInfo,
  type LockFileOptions,
} from "../../../src/lock/lock-file.ts";

const isLinux = process.platform === "linux";
const INFO: LockFileInfo = {
  port: 41234,
  workspace: "/w/project",
  workspaceFolders: ["/w/project"],
  ideName: "claude-ide-bridge",
  authToken: "0123456789abcdef0123456789abcdef",
};

/** A process that has exited and been reaped: its pid is dead. */
const DEAD_PID = spawnSync(process.execPath, ["-e", "0"]).pid;

let base: string;
let dir: string;
let runtime: Runtime;
const handles: LockFileHandle[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-lock-")));
  dir = join(base, "config", "ide");
  runtime = { ...createNodeRuntime(), env: { CLAUDE_CONFIG_DIR: join(base, "config") } };
});

afterEach(async () => {
  vi.useRealTimers();
  // remove() also stops each lock's guard, whose timer would outlive the test.
  await Promise.all(handles.splice(0).map((h) => h.remove()));
  await rm(base, { recursive: true, force: true });
});

async function write(info: LockFileInfo, opts?: LockFileOptions): Promise<LockFileHandle> {
  const handle = await writeLockFile(runtime, info, opts);
  handles.push(handle);
  return handle;
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

describe("every consumer reads a lock alike: the shim, print-token, status, stale-lock cleaning", () => {
  // Each case's lock is on port 1 and newest, a bridge whose folder is `ws/a/b`; port 2 holds an
  // older live bridge for `ws/a`, the fallback every consumer must agree on when port 1 is unusable.
  const CASES: Array<{ name: string; fields: Record<string, unknown>; cwd?: "a/bc" | "link"; live: boolean; chosen: boolean }> = [
    { name: "a live bridge", fields: {}, live: true, chosen: true },
    { name: "pid 0", fields: { pid: 0 }, live: false, chosen: false },
    { name: "a negative pid", fields: { pid: -1 }, live: false, chosen: false },
    { name: "no pid", fields: { pid: undefined }, live: false, chosen: false },
    { name: "a string pid (of a live process)", fields: { pid: String(process.pid) }, live: false, chosen: false },
    { name: "a fractional pid", fields: { pid: process.pid + 0.5 }, live: false, chosen: false },
    { name: "a dead pid", fields: { pid: DEAD_PID }, live: false, chosen: false },
    {
      name: "runningInWindows with a dead pid (seen from Linux)",
      fields: { pid: DEAD_PID, runningInWindows: true },
      live: true,
      chosen: true,
    },
    { name: "runningInWindows without a pid", fields: { pid: undefined, runningInWindows: true }, live: true, chosen: true },
    { name: "transport sse", fields: { transport: "sse" }, live: true, chosen: false },
    { name: "no transport field", fields: { transport: undefined }, live: true, chosen: true },
    { name: "an empty token", fields: { authToken: "" }, live: true, chosen: false },
    { name: "a folder that is a string prefix of the directory (/a/b vs /a/bc)", fields: {}, cwd: "a/bc", live: true, chosen: false },
    { name: "a symlinked directory", fields: {}, cwd: "link", live: true, chosen: true },
  ];

  let ws: string;
  beforeEach(async () => {
    ws = join(base, "ws");
    await mkdir(join(ws, "a", "b"), { recursive: true });
    await mkdir(join(ws, "a", "bc"), { recursive: true });
    await symlink(join(ws, "a", "b"), join(ws, "link"));
  });

  function commandContext(cwd: string): CommandContext & { stdout: string } {
    const ctx = {
      runtime: { ...runtime, paths: { ...runtime.paths, cwd } },
      stdout: "",
      out: (t: string) => {
        ctx.stdout += t;
      },
      err: () => undefined,
      self: { command: "claude-ide-bridge", args: [] },
      runtimeVersion: process.versions.node,
      signalProcess: () => undefined,
    };
    return ctx;
  }

  it.runIf(process.platform !== "win32").each(CASES)("$name", async ({ fields, cwd, live, chosen }) => {
    const theCase = await plant("1.lock", {
      pid: process.pid,
      workspaceFolders: [join(ws, "a", "b")],
      transport: "ws",
      authToken: "tok-1",
      isBridge: true,
      ...fields,
    });
    const fallback = await plant("2.lock", {
      pid: process.pid,
      workspaceFolders: [join(ws, "a")],
      transport: "ws",
      authToken: "tok-2",
      isBridge: true,
    });
    const old = new Date(Date.now() - 60_000);
    await utimes(fallback, old, old);
    const directory = join(ws, cwd ?? "a/b");
    const expectedPort = chosen ? 1 : 2;

    expect((await findTarget({ dir, cwd: realDirectory(directory) }))?.port, "shim").toBe(expectedPort);

    const token = commandContext(directory);
    expect(await printToken(token, []), "print-token exit code").toBe(0);
    expect(token.stdout, "print-token").toBe(`tok-${expectedPort}\n`);

    const report = commandContext(directory);
    await status(report, ["--json"]);
    const json = JSON.parse(report.stdout) as { chosenPort: number | null; bridges: Array<{ port: number; alive: boolean }> };
    expect(json.chosenPort, "status: chosen port").toBe(expectedPort);
    expect(json.bridges.find((b) => b.port === 1)?.alive, "status: alive").toBe(live);

    expect(await cleanStaleLocks(runtime), "cleaning").toEqual(live ? [] : [theCase]);
  });
});

describe("writeLockFile", () => {
  it("writes a 0600 lock with Claude Code's fields in a 0700 directory", async () => {
    const before = Date.now();
    const lock = await write(INFO);
    expect(lock.path).toBe(join(dir, "41234.lock"));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(lock.path)).mode & 0o777).toBe(0o600);

    const json: Record<string, unknown> = JSON.parse(await readFile(lock.path, "utf8"));
    expect(Object.keys(json).sort()).toEqual(
      [
        "authToken",
        "ideName",
        "isBridge",
        "nonce",
        "pid",
        "runningInWindows",
        "startedAt",
        "transport",
        "workspace",
        "workspaceFolders",
      ].sort(),
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
    await write(INFO);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("refuses a port whose lock belongs to a live process, and leaves that lock alone", async () => {
    const content = { pid: process.ppid, ideName: "VS Code", transport: "ws", workspaceFolders: ["/x"] };
    const path = await plant("41234.lock", content);
    const err = await lockError(write(INFO));
    expect(err.code).toBe("lock_failed");
    expect(err.message).toContain(`running process ${process.ppid}`);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(content);
  });

  it("replaces a lock left by a dead process", async () => {
    await plant("41234.lock", { pid: DEAD_PID, startedAt: Date.now() - 1000, nonce: "old", isBridge: true });
    const lock = await write(INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, isBridge: true });
  });

  it("replaces an unreadable lock on its own port", async () => {
    await plant("41234.lock", "{not json");
    const lock = await write(INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid });
  });

  it.runIf(isLinux)("replaces a lock whose pid was reused by a younger process", async () => {
    await plant("41234.lock", { pid: process.pid, startedAt: Date.now() - 3 * 3600_000, isBridge: true });
    const lock = await write(INFO);
    expect(JSON.parse(await readFile(lock.path, "utf8")).startedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it("does not follow a symlink planted at the lock path", async () => {
    const target = join(base, "victim.txt");
    await writeFile(target, "precious", { mode: 0o644 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await symlink(target, join(dir, "41234.lock"));

    const lock = await write(INFO);
    expect(await readFile(target, "utf8")).toBe("precious");
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    const st = await lstat(lock.path);
    expect(st.isSymbolicLink()).toBe(false);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it("remove() keeps a lock that is no longer ours", async () => {
    const lock = await write(INFO);
    const theirs = { ...JSON.parse(await readFile(lock.path, "utf8")), nonce: "someone-else" };
    await writeFile(lock.path, JSON.stringify(theirs));
    await lock.remove();
    expect(JSON.parse(await readFile(lock.path, "utf8")).nonce).toBe("someone-else");
  });
});

describe("the lock's guard", () => {
  it("writes the lock again, same content and nonce, when it is deleted", async () => {
    const restored = vi.fn();
    const lock = await write(INFO, { intervalMs: 20, onRestore: restored });
    const before = await readFile(lock.path, "utf8");
    await rm(lock.path);
    await vi.waitFor(() => expect(restored).toHaveBeenCalledTimes(1), { timeout: 2_000 });
    expect(restored).toHaveBeenCalledWith();
    expect(await readFile(lock.path, "utf8")).toBe(before);
    expect((await stat(lock.path)).mode & 0o777).toBe(0o600);
  });

  it("recreates the directory too, 0700", async () => {
    const restored = vi.fn();
    const lock = await write(INFO, { intervalMs: 20, onRestore: restored });
    await rm(dir, { recursive: true });
    await vi.waitFor(() => expect(restored).toHaveBeenCalled(), { timeout: 2_000 });
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, authToken: INFO.authToken });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("stops on remove(): no timer is left to write the lock again", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const lock = await write(INFO);
    expect(vi.getTimerCount()).toBe(1);
    await lock.remove();
    expect(vi.getTimerCount()).toBe(0);
    await expect(stat(lock.path)).rejects.toThrow(/ENOENT/);
  });
});

describe("cleanStaleLocks", () => {
  it("returns [] when the directory does not exist", async () => {
    expect(await cleanStaleLocks(runtime)).toEqual([]);
  });

  it("removes dead and unreadable locks, never live ones or other files", async () => {
    const dead = await plant("1111.lock", { pid: DEAD_PID, startedAt: Date.now(), isBridge: true });
    const liveIde = await plant("2222.lock", { pid: process.ppid, ideName: "VS Code", transport: "ws" });
    const liveBridge = await plant("3333.lock", { pid: process.pid, startedAt: Date.now() - 5000, isBridge: true });
    const garbageOld = await plant("4444.lock", "{half");
    const old = new Date(Date.now() - 60_000);
    await utimes(garbageOld, old, old);
    const garbageNew = await plant("5555.lock", "{being written");
    // Dead by the shared rule, so removed at once: a complete JSON lock is not half-written.
    const noPid = await plant("6666.lock", { ideName: "x" });
    const pidZero = await plant("6667.lock", { pid: 0, isBridge: true });
    const windows = await plant("7777.lock", { pid: DEAD_PID, runningInWindows: true });
    const windowsNoPid = await plant("7778.lock", { runningInWindows: true });
    const other = await plant("config.json", "{}");
    const ours = await write({ ...INFO, port: 8888 });

    const removed = await cleanStaleLocks(runtime);
    expect(removed.sort()).toEqual([dead, garbageOld, noPid, pidZero].sort());
    // A Windows IDE's pid means nothing here, so its locks stay too.
    const kept = [liveIde, liveBridge, garbageNew, windows, windowsNoPid, other, ours.path].map((p) => p.slice(dir.length + 1));
    expect((await readdir(dir)).sort()).toEqual(kept.sort());
  });

  it.runIf(isLinux)("removes a live pid's lock when that process started long after the lock", async () => {
    const reused = await plant("1234.lock", { pid: process.pid, startedAt: Date.now() - 3 * 3600_000, isBridge: true });
    const fine = await plant("1235.lock", { pid: process.pid, startedAt: Date.now() - 1000, isBridge: true });
    expect(await cleanStaleLocks(runtime)).toEqual([reused]);
    await expect(stat(fine)).resolves.toBeDefined();
  });
});
