// Another live bridge on the same workspace, found before we start: two bridges on one project
// split its clients between them (each picks the newest lock) and then `print-token` picks one
// without saying so. So a second bridge says whose the first is, or refuses (--exclusive).
import { BridgeError } from "../errors.ts";
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

/** A second bridge on one workspace splits its clients: say whose the first is, or refuse (--exclusive). */
export async function checkOtherBridges(
  runtime: Runtime,
  opts: { root: string; exclusive: boolean; log: { warn(message: string): void } },
): Promise<void> {
  const others = await otherBridgesOn(runtime, opts.root);
  if (others.length === 0) return;
  const who = `another bridge already serves ${opts.root} (${describeBridges(others)})`;
  if (opts.exclusive)
    throw new BridgeError(
      "startup_failed",
      `${who}; --exclusive refuses a second one. Use it, or stop it first: claude-ide-bridge stop --port ${others[0]?.port ?? "<port>"}`,
    );
  opts.log.warn(
    `${who}; clients pick the newest lock, so they will use this one from now on. Stop the other with \`claude-ide-bridge stop --port ${others[0]?.port ?? "<port>"}\`, or start with --exclusive to refuse`,
  );
}
