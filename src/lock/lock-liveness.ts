// Whether a lock's owner still runs: one rule for the shim, the commands and the bridge's stale-lock
// cleaning (which adds a PID-reuse check, lock-record.ts). Runtime-free: the caller brings the probe.
import type { IdeLock } from "./lock-fields.ts";

export interface ProcessProbe {
  /** kill(pid, 0): true for a live process, also one of another user. */
  processAlive(pid: number): boolean;
  readonly platform: "linux" | "darwin" | "win32" | "other";
}

/**
 * A lock without a usable pid (0, negative, fractional, a string, missing) is dead: kill(0, 0) and
 * kill(-n, 0) address process groups, so such a pid would look alive and the shim would wait on a
 * ghost. The exception is a Windows IDE's lock seen from elsewhere (WSL reads the Windows profile's
 * locks): its pid names a Windows process we cannot see, so it counts as live whatever the pid, as
 * Claude Code, which skips its own pid check there, treats it. Such locks are the IDE's to remove.
 */
export function isLockLive(lock: Pick<IdeLock, "pid" | "runningInWindows">, probe: ProcessProbe): boolean {
  if (isWindowsLockSeenElsewhere(lock, probe)) return true;
  return lock.pid !== undefined && probe.processAlive(lock.pid);
}

export function isWindowsLockSeenElsewhere(lock: Pick<IdeLock, "runningInWindows">, probe: Pick<ProcessProbe, "platform">): boolean {
  return lock.runningInWindows && probe.platform !== "win32";
}
