// The IDE lock file Claude Code reads to discover us: `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/<port>.lock`
// (protocol.md A1, original-tools.md 3.5). Field names are Claude Code's, so they must stay exact.
import { BridgeError, errorMessage, fsErrorCode } from "../errors.ts";
import { join } from "../security/posix-path.ts";
import type { Runtime } from "../runtime.ts";
import { isAbandoned, readLock, removeIfUnchanged } from "./lock-record.ts";

export interface LockFileInfo {
  port: number;
  workspace: string;
  workspaceFolders: string[];
  ideName: string;
  authToken: string;
}

export interface LockFileHandle {
  readonly path: string;
  /** Deletes the lock if it is still ours (same nonce); safe to call twice. */
  remove(): Promise<void>;
}

/** A lock that is not JSON yet may be a real IDE's half-written file; leave it this long. */
const INVALID_LOCK_GRACE_MS = 10_000;

export function lockDir(runtime: Runtime): string {
  const configDir = runtime.env.CLAUDE_CONFIG_DIR;
  return join(configDir !== undefined && configDir !== "" ? configDir : join(runtime.paths.home, ".claude"), "ide");
}

export async function writeLockFile(runtime: Runtime, info: LockFileInfo): Promise<LockFileHandle> {
  const dir = await ensurePrivateDir(runtime, lockDir(runtime));
  const path = join(dir, `${info.port}.lock`);
  const nonce = crypto.randomUUID();
  const content = JSON.stringify({
    pid: runtime.pid,
    startedAt: Date.now(),
    nonce,
    workspace: info.workspace,
    workspaceFolders: info.workspaceFolders,
    ideName: info.ideName,
    transport: "ws",
    authToken: info.authToken,
    isBridge: true,
    runningInWindows: runtime.platform === "win32",
  });

  for (let attempt = 0; ; attempt++) {
    try {
      // O_EXCL: never overwrites, never follows a symlink planted at the path.
      await runtime.fs.createExclusive(path, content, 0o600);
      break;
    } catch (err) {
      if (fsErrorCode(err) !== "EEXIST" || attempt > 0) {
        throw new BridgeError("lock_failed", `cannot create the lock file ${path}: ${errorMessage(err)}`, { cause: err });
      }
      await clearLockForOurPort(runtime, path);
    }
  }
  return { path, remove: () => removeIfNonce(runtime, path, nonce) };
}

/**
 * Removes `<port>.lock` files whose owner is gone (dead or reused pid), and unreadable ones older than
 * a few seconds. Locks of live processes, including other IDEs', are never touched.
 */
export async function cleanStaleLocks(runtime: Runtime): Promise<string[]> {
  const dir = lockDir(runtime);
  let entries;
  try {
    entries = await runtime.fs.readdir(dir);
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return [];
    throw err;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!/^\d+\.lock$/.test(entry.name)) continue;
    const path = join(dir, entry.name);
    const lock = await readLock(runtime, path);
    const stale =
      lock.state === "invalid"
        ? Date.now() - lock.mtimeMs > INVALID_LOCK_GRACE_MS
        : lock.state === "valid" && (await isAbandoned(runtime, lock.record));
    if (stale && lock.state !== "missing" && (await removeIfUnchanged(runtime, path, lock.text))) removed.push(path);
  }
  return removed;
}

/** We hold the port, so a lock naming it is either a live process's (refuse) or debris (remove). */
async function clearLockForOurPort(runtime: Runtime, path: string): Promise<void> {
  const lock = await readLock(runtime, path);
  if (lock.state === "missing") return;
  if (lock.state === "valid" && !(await isAbandoned(runtime, lock.record))) {
    throw new BridgeError(
      "lock_failed",
      `${path} belongs to the running process ${lock.record.pid}; stop it, pick another --port, or delete the file if that process is not an IDE or bridge`,
    );
  }
  await removeIfUnchanged(runtime, path, lock.text);
}

async function removeIfNonce(runtime: Runtime, path: string, nonce: string): Promise<void> {
  const lock = await readLock(runtime, path);
  if (lock.state === "valid" && lock.record.nonce === nonce) await removeIfUnchanged(runtime, path, lock.text);
}

/** mkdir 0700, and tighten a directory that already existed with looser bits (it holds tokens). */
async function ensurePrivateDir(runtime: Runtime, dir: string): Promise<string> {
  try {
    await runtime.fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // Windows has no POSIX modes; its ACLs already keep the profile private.
    if (runtime.platform !== "win32" && ((await runtime.fs.stat(dir)).mode & 0o077) !== 0) {
      await runtime.fs.chmod(dir, 0o700);
    }
  } catch (err) {
    throw new BridgeError("lock_failed", `cannot prepare the lock directory ${dir}: ${errorMessage(err)}`, { cause: err });
  }
  return dir;
}
