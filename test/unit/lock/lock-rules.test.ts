// The rules every reader of the IDE lock file shares (protocol.md A1): liveness, problems, folder
// containment and selection, on parsed locks with a stand-in process probe. Split from
// test/integration/lock/lock-file.test.ts, which runs them through every consumer on real files.
import { describe, expect, it } from "vitest";
import type { IdeLock } from "../../../src/lock/lock-fields.ts";
import { isLockLive, type ProcessProbe } from "../../../src/lock/lock-liveness.ts";
import { folderContains, lockProblem, selectLock, type LockEntry } from "../../../src/lock/lock-selection.ts";

const LIVE_PID = 4242;
const probe = (platform: ProcessProbe["platform"] = "linux"): ProcessProbe => ({ processAlive: (pid) => pid === LIVE_PID, platform });
const ideLock = (fields: Partial<IdeLock> = {}): IdeLock => ({
  pid: LIVE_PID,
  workspace: undefined,
  workspaceFolders: ["/work/app"],
  ideName: undefined,
  transport: "ws",
  authToken: "tok",
  isBridge: true,
  runningInWindows: false,
  startedAt: undefined,
  nonce: undefined,
  ...fields,
});

describe("the shared rules", () => {
  it.each([
    ["a live pid", { pid: LIVE_PID }, "linux", true],
    ["a dead pid", { pid: 99 }, "linux", false],
    ["no usable pid (0, negative, a string, missing: parsed as undefined)", { pid: undefined }, "linux", false],
    ["a Windows IDE's lock seen from Linux (WSL), dead pid", { pid: 99, runningInWindows: true }, "linux", true],
    ["a Windows IDE's lock seen from Linux, no pid", { pid: undefined, runningInWindows: true }, "linux", true],
    ["a Windows IDE's lock seen from macOS", { pid: undefined, runningInWindows: true }, "darwin", true],
    ["a Windows IDE's lock on Windows, dead pid", { pid: 99, runningInWindows: true }, "win32", false],
  ] as const)("liveness: %s", (_name, fields, platform, live) => {
    expect(isLockLive(ideLock(fields), probe(platform))).toBe(live);
  });

  it("problems: dead, not WebSocket, no token; a lock without a transport is a WebSocket one", () => {
    expect(lockProblem(ideLock({ pid: undefined }), probe())).toBe("dead");
    expect(lockProblem(ideLock({ transport: "sse" }), probe())).toBe("not_websocket");
    expect(lockProblem(ideLock({ authToken: undefined }), probe())).toBe("no_token");
    expect(lockProblem(ideLock({ transport: undefined }), probe())).toBeUndefined();
  });

  it.each([
    ["/a/b", "/a/b", true],
    ["/a/b", "/a/b/c/d", true],
    ["/a/b/", "/a/b/c", true],
    ["/a//b/./c/..", "/a/b/c", true],
    ["/", "/anything", true],
    ["/a/b", "/a/bc", false],
    ["/a/b", "/a", false],
    ["/a/bc", "/a/b", false],
    ["", "/a", false],
    ["a/b", "/a/b", false],
  ] as const)("folderContains(%j, %j) is %s", (folder, cwd, expected) => {
    expect(folderContains(folder, cwd)).toBe(expected);
  });

  it("selection: usable and serving the directory; bridges, then the previous port, then the newest", () => {
    const entry = (port: number, mtimeMs: number, fields: Partial<IdeLock> = {}): LockEntry => ({
      port,
      path: `/ide/${port}.lock`,
      mtimeMs,
      lock: ideLock(fields),
    });
    const entries = [
      entry(1, 100),
      entry(2, 300),
      entry(3, 900, { isBridge: false }),
      entry(4, 950, { pid: undefined }),
      entry(5, 960, { workspaceFolders: ["/work/apple"] }),
      entry(6, 970, { authToken: undefined }),
      entry(7, 300),
    ];
    const pick = (opts: { cwd?: string; port?: number; previousPort?: number }, list = entries) =>
      selectLock(list, { cwd: "/work/app/src", ...opts }, probe())?.port;
    expect(pick({})).toBe(2); // newest bridge; 7 has the same mtime, and the lower port wins the tie
    expect(pick({ previousPort: 1 })).toBe(1);
    expect(pick({ previousPort: 3 })).toBe(2); // a bridge beats the IDE we were on
    expect(
      pick(
        {},
        entries.filter((e) => e.port >= 3 && e.port <= 6),
      ),
    ).toBe(3); // no usable bridge: the IDE
    expect(pick({ cwd: "/elsewhere" })).toBeUndefined();
    expect(pick({ cwd: "/elsewhere", port: 5 })).toBe(5);
    expect(pick({ port: 4 })).toBeUndefined();
    expect(pick({ port: 6 })).toBeUndefined();
  });
});
