// Questions about other processes (is it alive, when did it start) for the lock file's stale-lock
// and PID-reuse checks.
import { readFile } from "node:fs/promises";

// The shim needs this too and imports nothing from runtime/, so it lives there.
export { processAlive } from "../../shim/process-alive.ts";

/**
 * Linux USER_HZ: /proc reports times in these ticks, and the kernel fixes it at 100 on every
 * architecture Node supports. The exact value is sysconf(_SC_CLK_TCK), which Node cannot call
 * without a child process; being off would only blur the PID-reuse guard, which has an hour of slack.
 */
const CLOCK_TICKS_PER_SECOND = 100;

/** Start time in ms since the epoch: btime (boot, /proc/stat) + starttime (field 22 of /proc/<pid>/stat). */
export async function processStartTime(pid: number): Promise<number | undefined> {
  if (process.platform !== "linux" || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const [stat, systemStat] = await Promise.all([readFile(`/proc/${pid}/stat`, "utf8"), readFile("/proc/stat", "utf8")]);
    // Field 2 is "(comm)" and comm may hold spaces or ")", so count fields from the last ")".
    // What follows starts at field 3, which puts field 22 at index 19.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const btime = Number(/^btime (\d+)$/m.exec(systemStat)?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return undefined;
    return btime * 1000 + (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
