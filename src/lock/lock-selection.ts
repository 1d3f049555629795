// Which lock a client connects to, the same for the shim, `print-token` and `status`: live, a
// WebSocket lock with a token, a workspace folder containing the directory, bridges before other
// IDEs, the port we were on before, then the newest. Runtime-free, so the shim shares it.
import { isInside, normalize } from "../lib/paths/posix-path.ts";
import type { IdeLock } from "./lock-fields.ts";
import { isLockLive, type ProcessProbe } from "./lock-liveness.ts";

/** A lock that parsed, with what its file says about it. */
export interface LockEntry {
  port: number;
  path: string;
  mtimeMs: number;
  lock: IdeLock;
}

/** Why a client cannot use a lock. */
export type LockProblem = "dead" | "not_websocket" | "no_token";

export function lockProblem(lock: IdeLock, probe: ProcessProbe): LockProblem | undefined {
  if (!isLockLive(lock, probe)) return "dead";
  // protocol.md A1: anything but "ws" means SSE, which no client here speaks. A lock without the
  // field is read as WebSocket, as the shim always has.
  if (lock.transport !== undefined && lock.transport !== "ws") return "not_websocket";
  // Our clients always authenticate; a lock without a token is not a bridge's.
  if (lock.authToken === undefined) return "no_token";
  return undefined;
}

/**
 * `dir` equals `folder` or lies below it, by path segments: `/a/b` contains `/a/b/c`, not `/a/bc`.
 * POSIX paths, compared as written after collapsing `//`, `.` and `..`; callers pass the directory's
 * realpath (a shell's cwd may be a symlink; the bridge writes real paths).
 */
export function folderContains(folder: string, dir: string): boolean {
  return isInside(normalize(dir), normalize(folder));
}

export interface SelectOptions {
  /** The directory to serve (its realpath); ignored when `port` is given. */
  cwd: string;
  /** Only this port's lock, whatever its workspace (--port). */
  port?: number;
  /** Preferred among equals: the shim's session lives there. */
  previousPort?: number;
}

/** An entry lockProblem() found nothing wrong with, so it has a token. */
export type UsableLockEntry<T extends LockEntry> = T & { lock: { authToken: string } };

export function selectLock<T extends LockEntry>(
  entries: readonly T[],
  opts: SelectOptions,
  probe: ProcessProbe,
): UsableLockEntry<T> | undefined {
  const usable = entries.filter((e): e is UsableLockEntry<T> => lockProblem(e.lock, probe) === undefined);
  if (opts.port !== undefined) return usable.find((e) => e.port === opts.port);
  const serving = usable.filter((e) => e.lock.workspaceFolders.some((folder) => folderContains(folder, opts.cwd)));
  const preferred = (e: LockEntry) => (e.port === opts.previousPort ? 1 : 0);
  serving.sort(
    (a, b) =>
      Number(b.lock.isBridge) - Number(a.lock.isBridge) ||
      preferred(b) - preferred(a) ||
      b.mtimeMs - a.mtimeMs ||
      // Same mtime: one fixed order, so every client picks the same one.
      a.port - b.port,
  );
  return serving[0];
}
