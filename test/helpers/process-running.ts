// Whether a process is still running, as tests that kill process trees need to know: a zombie has
// ended but still answers kill(pid, 0), and in a container nobody may ever reap an orphaned one.
// Linux only (/proc); elsewhere everything reads as gone.
import { readFileSync } from "node:fs";

export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state is the field after "(comm)", and comm may itself hold ")".
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
