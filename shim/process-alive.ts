// Whether a process still runs, for the lock files' stale-lock checks: the shim's and, through
// runtime/shared/process.ts, every runtime's. Here because the shim imports nothing from runtime/.
import process from "node:process";

export function processAlive(pid: number): boolean {
  // kill(0, 0) and kill(-n, 0) address process groups, which would make any pid look alive.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return typeof err === "object" && err !== null && "code" in err && err.code === "EPERM";
  }
}
