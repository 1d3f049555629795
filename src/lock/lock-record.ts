// Lock files through the Runtime's fs, for the bridge and its commands, and the judgement the
// bridge's stale-lock cleaning adds to liveness. The directory is shared with real IDEs, so a
// lock is only called stale on hard evidence.
import { fsErrorCode } from "../errors.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { IdeLock } from "./lock-fields.ts";
import { readLock, type LockDirReader, type LockRead } from "./lock-dir.ts";
import { isLockLive, isWindowsLockSeenElsewhere } from "./lock-liveness.ts";
import { parseLockText } from "./lock-schema.ts";

/**
 * A live process that started this long after the lock was written cannot be its writer (the bridge
 * writes its lock at start-up), so its pid was reused. The slack absorbs wall-clock steps (NTP, VM
 * resume), which shift the computed start time; an hour keeps a live lock safe from those while still
 * catching the common case of a crash and a pid handed out again much later.
 */
const PID_REUSE_SLACK_MS = 60 * 60 * 1000;

export function runtimeLockReader(runtime: Pick<Runtime, "fs">): LockDirReader {
  return {
    async names(dir) {
      try {
        return (await runtime.fs.readdir(dir)).map((entry) => entry.name);
      } catch (err) {
        if (fsErrorCode(err) === "ENOENT" || fsErrorCode(err) === "ENOTDIR") return [];
        throw err;
      }
    },
    async read(path) {
      try {
        const stat = await runtime.fs.lstat(path);
        if (!stat.isFile) return { kind: "not-a-file", mtimeMs: stat.mtimeMs };
        return { kind: "file", text: await runtime.fs.readTextFile(path), mtimeMs: stat.mtimeMs };
      } catch (err) {
        // Removed between the listing and the read, or between lstat and read.
        if (fsErrorCode(err) === "ENOENT") return { kind: "missing" };
        throw err;
      }
    },
  };
}

export function readRuntimeLock(runtime: Pick<Runtime, "fs">, path: string, opts: { port: number }): Promise<LockRead> {
  return readLock(runtimeLockReader(runtime), path, { port: opts.port, parse: parseLockText });
}

/** Whether the lock's owner is gone: dead by the shared rule (lock-liveness.ts), or a reused pid. */
export async function isAbandoned(
  runtime: Pick<Runtime, "platform" | "processAlive" | "processStartTime">,
  lock: IdeLock,
): Promise<boolean> {
  if (!isLockLive(lock, runtime)) return true;
  // Live by the Windows exception: its pid is not ours to ask about.
  if (isWindowsLockSeenElsewhere(lock, runtime) || lock.pid === undefined || lock.startedAt === undefined) return false;
  const started = await runtime.processStartTime(lock.pid);
  return started !== undefined && started > lock.startedAt + PID_REUSE_SLACK_MS;
}

/** Removes the file only if it still holds `text`, so a lock rewritten meanwhile survives. */
export async function removeIfUnchanged(
  runtime: Pick<Runtime, "fs">,
  path: string,
  expected: { port: number; text: string | undefined },
): Promise<boolean> {
  const now = await readRuntimeLock(runtime, path, expected);
  if (now.state === "missing" || now.text !== expected.text) return false;
  try {
    await runtime.fs.rm(path);
    return true;
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return false;
    throw err;
  }
}
