// The IDE lock file Claude Code reads to discover us: `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/<port>.lock`
// (protocol.md A1, original-tools.md 3.5): written at start-up, kept in place while we run, removed
// on exit; and other processes' stale locks cleaned. Field names are Claude Code's, so they must stay exact.
import { BridgeError, errorMessage, fsErrorCode } from "../errors.ts";
import { join } from "../lib/paths/posix-path.ts";
import type { Runtime } from "../ports/runtime.ts";
import { readLockDir } from "./lock-dir.ts";
import { guardLockFile, type LockGuardOptions } from "./lock-guard.ts";
import { ideLockDir } from "./lock-fields.ts";
import { isAbandoned, readRuntimeLock, removeIfUnchanged, runtimeLockReader } from "./lock-record.ts";
import { parseLockText } from "./lock-schema.ts";

export interface LockFileInfo {
  port: number;
  workspace: string;
  workspaceFolders: string[];
  ideName: string;
  authToken: string;
}

export interface LockFileHandle {
  readonly path: string;
  /** Stops the guard that rewrites a deleted lock, then deletes the lock if it is still ours (same nonce); safe to call twice. */
  remove(): Promise<void>;
}

export type LockFileOptions = Pick<LockGuardOptions, "intervalMs" | "onRestore">;

/** A lock that is not JSON yet may be a real IDE's half-written file; leave it this long. */
const INVALID_LOCK_GRACE_MS = 10_000;

export function lockDir(runtime: Pick<Runtime, "env" | "paths">): string {
  return ideLockDir(runtime.env.CLAUDE_CONFIG_DIR, runtime.paths.home);
}

export async function writeLockFile(runtime: Runtime, info: LockFileInfo, opts: LockFileOptions = {}): Promise<LockFileHandle> {
  const path = join(lockDir(runtime), `${info.port}.lock`);
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

  await ensurePrivateDir(runtime, lockDir(runtime));
  for (let attempt = 0; ; attempt++) {
    try {
      // O_EXCL: never overwrites, never follows a symlink planted at the path.
      await runtime.fs.createExclusive(path, content, 0o600);
      break;
    } catch (err) {
      if (fsErrorCode(err) !== "EEXIST" || attempt > 0) {
        throw new BridgeError("lock_failed", `cannot create the lock file ${path}: ${errorMessage(err)}`, { cause: err });
      }
      await clearLockForOurPort(runtime, path, info.port);
    }
  }

  const guard = guardLockFile(runtime, path, {
    ...opts,
    // The same content and nonce: a shim that read the lock before keeps a valid token.
    restore: async () => {
      await ensurePrivateDir(runtime, lockDir(runtime));
      await runtime.fs.createExclusive(path, content, 0o600).catch((err: unknown) => {
        // Written back meanwhile, by us or by someone else: either way not ours to overwrite.
        if (fsErrorCode(err) !== "EEXIST") throw err;
      });
    },
  });
  return {
    path,
    remove: async () => {
      await guard.stop();
      await removeIfNonce(runtime, path, { port: info.port, nonce });
    },
  };
}

/**
 * Removes `<port>.lock` files whose owner is gone (lock-liveness.ts, plus a reused pid), and
 * unreadable ones older than a few seconds. Live processes' locks, other IDEs' too, stay.
 */
export async function cleanStaleLocks(runtime: Runtime): Promise<string[]> {
  const removed: string[] = [];
  for (const { port, path, read } of await readLockDir(runtimeLockReader(runtime), lockDir(runtime), { parse: parseLockText })) {
    if (read.state === "missing") continue;
    const stale =
      read.state === "invalid" ? Date.now() - read.mtimeMs > INVALID_LOCK_GRACE_MS : await isAbandoned(runtime, read.entry.lock);
    if (stale && (await removeIfUnchanged(runtime, path, { port, text: read.text }))) removed.push(path);
  }
  return removed;
}

/** We hold the port, so a lock naming it is either a live process's (refuse) or debris (remove). */
async function clearLockForOurPort(runtime: Runtime, path: string, port: number): Promise<void> {
  const read = await readRuntimeLock(runtime, path, { port });
  if (read.state === "missing") return;
  if (read.state === "valid" && !(await isAbandoned(runtime, read.entry.lock))) {
    throw new BridgeError(
      "lock_failed",
      `${path} belongs to the running process ${read.entry.lock.pid ?? "(a Windows IDE)"}; stop it, pick another --port, or delete the file if that process is not an IDE or bridge`,
    );
  }
  await removeIfUnchanged(runtime, path, { port, text: read.text });
}

async function removeIfNonce(runtime: Runtime, path: string, expected: { port: number; nonce: string }): Promise<void> {
  const read = await readRuntimeLock(runtime, path, expected);
  if (read.state === "valid" && read.entry.lock.nonce === expected.nonce)
    await removeIfUnchanged(runtime, path, { port: expected.port, text: read.text });
}

/** mkdir 0700, and tighten a directory that already existed with looser bits (it holds tokens). */
async function ensurePrivateDir(runtime: Runtime, dir: string): Promise<void> {
  try {
    await runtime.fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // Windows has no POSIX modes; its ACLs already keep the profile private.
    if (runtime.platform !== "win32" && ((await runtime.fs.stat(dir)).mode & 0o077) !== 0) {
      await runtime.fs.chmod(dir, 0o700);
    }
  } catch (err) {
    throw new BridgeError("lock_failed", `cannot prepare the lock directory ${dir}: ${errorMessage(err)}`, { cause: err });
  }
}
