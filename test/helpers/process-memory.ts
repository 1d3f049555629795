// Memory of a child process as the kernel counts it (resident set), for tests that bound what a
// workload leaves behind. Linux only: other systems have no /proc/<pid>/status.
import { existsSync, readFileSync } from "node:fs";

export const CAN_READ_RSS = existsSync("/proc/self/status");

/** The process's resident set in MiB (VmRSS of /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS line in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}
