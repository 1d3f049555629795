// Another live bridge on the same workspace, found before we start: two bridges on one project
// split its clients between them (each picks the newest lock) and then `print-token` picks one
// without saying so. So a second bridge says whose the first is, or refuses (--exclusive).
import type { Runtime } from "../ports/runtime.ts";
import { readLockEntries } from "./lock-dir.ts";
import { lockDir } from "./lock-file.ts";
import { isLockLive } from "./lock-liveness.ts";
import { runtimeLockReader } from "./lock-record.ts";
import { parseLockText } from "./lock-schema.ts";
import type { LockEntry } from "./lock-selection.ts";

export async function otherBridgesOn(runtime: Runtime, workspace: string): Promise<LockEntry[]> {
  const entries = await readLockEntries(runtimeLockReader(runtime), lockDir(runtime), { parse: parseLockText }).catch(
    (): LockEntry[] => [],
  );
  return entries.filter(
    (e) =>
      e.lock.isBridge &&
      e.lock.pid !== runtime.pid &&
      isLockLive(e.lock, runtime) &&
      (e.lock.workspace === workspace || e.lock.workspaceFolders.includes(workspace)),
  );
}

/** "pid 123 on port 4100, pid 456 on port 4200" */
export function describeBridges(entries: readonly LockEntry[]): string {
  return entries.map((e) => `pid ${e.lock.pid ?? "?"} on port ${e.port}`).join(", ");
}
