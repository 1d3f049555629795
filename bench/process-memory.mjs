// The processes a bridge started (language servers, checkers, their children) and their resident
// memory, read from Linux's /proc, for the benchmarks that report what a call left running.
import { readFileSync, readdirSync } from "node:fs";

/** Every descendant of pid, children before grandchildren. */
export function descendants(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const out = [];
  const walk = (p) => {
    for (const [child, parent] of parents)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

/** Resident memory of one process in MiB; 0 when it is gone or unreadable. */
export function rssMiB(pid) {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
