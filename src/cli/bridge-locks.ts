// The lock files as the CLI commands see them: every `<port>.lock` that parses, newest first, with
// whether its process is alive and why a client would skip it, and the choice of "the bridge for
// this directory" by the rules the shim uses (src/lock/lock-selection.ts).
import type { Runtime } from "../ports/runtime.ts";
import { readLockEntries } from "../lock/lock-dir.ts";
import { lockDir } from "../lock/lock-file.ts";
import { isLockLive } from "../lock/lock-liveness.ts";
import { runtimeLockReader } from "../lock/lock-record.ts";
import { parseLockText } from "../lock/lock-schema.ts";
import { lockProblem, selectLock, type LockEntry, type LockProblem, type UsableLockEntry } from "../lock/lock-selection.ts";

export interface BridgeLock extends LockEntry {
  alive: boolean;
  /** Why the shim and print-token would not use it; undefined when they would. */
  problem: LockProblem | undefined;
}

/** The problems in words, for the commands' output. */
export const PROBLEMS: Readonly<Record<LockProblem, string>> = {
  dead: "process not running (stale lock file)",
  not_websocket: 'not a WebSocket lock (transport is not "ws")',
  no_token: "the lock has no auth token",
};

export async function listLocks(runtime: Runtime): Promise<BridgeLock[]> {
  let entries: LockEntry[];
  try {
    entries = await readLockEntries(runtimeLockReader(runtime), lockDir(runtime), { parse: parseLockText });
  } catch {
    // An unreadable directory (EACCES): as far as a client can tell, no bridge runs.
    return [];
  }
  return entries.map((entry) => ({ ...entry, alive: isLockLive(entry.lock, runtime), problem: lockProblem(entry.lock, runtime) }));
}

/** The directory as the shim compares it: its realpath, when it exists. */
export async function realDirectory(runtime: Runtime, dir: string): Promise<string> {
  return runtime.fs.realpath(dir).catch(() => dir);
}

/** The lock the shim would connect to for `cwd` (or the one of `port`), among `locks`. */
export async function chooseLock(
  runtime: Runtime,
  locks: readonly BridgeLock[],
  opts: { port?: number; cwd: string },
): Promise<UsableLockEntry<BridgeLock> | undefined> {
  return selectLock(locks, { port: opts.port, cwd: await realDirectory(runtime, opts.cwd) }, runtime);
}
