// Puts our lock file back when it disappears while the bridge runs (a user clearing ~/.claude/ide,
// a cleaner script, another tool's over-eager stale-lock removal): without it, new shims, Claude
// Code and `status` stop finding a bridge that is still serving. One lstat per interval; the
// Runtime port has no directory watch, and a second's delay is well within a shim's backoff.
import { fsErrorCode } from "../errors.ts";
import type { Runtime } from "../ports/runtime.ts";

const LOCK_GUARD_INTERVAL_MS = 1_000;

export interface LockGuardOptions {
  /** Writes the lock again; an existing file (EEXIST) must be left alone by it. */
  restore(): Promise<void>;
  intervalMs?: number;
  /** After each rewrite: `error` when it failed (it is tried again on the next tick). */
  onRestore?(error?: unknown): void;
}

interface LockGuard {
  /** Stops checking; resolves once a rewrite in progress has finished, so none follows. */
  stop(): Promise<void>;
}

export function guardLockFile(runtime: Pick<Runtime, "fs">, path: string, opts: LockGuardOptions): LockGuard {
  let stopped = false;
  let inProgress: Promise<void> | undefined;
  const check = async (): Promise<void> => {
    try {
      await runtime.fs.lstat(path);
      return;
    } catch (err) {
      // Anything but "gone" (EACCES on the directory, say) is not ours to fix.
      if (fsErrorCode(err) !== "ENOENT") return;
    }
    if (stopped) return;
    try {
      await opts.restore();
      opts.onRestore?.();
    } catch (err) {
      opts.onRestore?.(err);
    }
  };
  const timer = setInterval(() => {
    inProgress ??= check().finally(() => (inProgress = undefined));
  }, opts.intervalMs ?? LOCK_GUARD_INTERVAL_MS);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inProgress;
    },
  };
}
