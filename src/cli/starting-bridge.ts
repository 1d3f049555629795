// A bridge a shim is starting is there before its lock file is: the shim that starts one claims a
// marker in the lock directory (`spawn-<hash of the project>.pending`, shim/spawn-bridge.ts) for 30 s,
// and may have answered its client's initialize already (src/startup/predicted-initialize.ts). A
// command that looks for "the bridge for this directory" right after (stop, in a script that
// connected through the shim and is done) waits for such a bridge's lock instead of saying none runs.
import type { Runtime } from "../ports/runtime.ts";
import { lockDir } from "../lock/lock-file.ts";
import { SPAWN_MARKER as MARKER, SPAWN_MARKER_TTL_MS as MARKER_TTL_MS } from "../lock/lock-fields.ts";

const POLL_MS = 100;

/** `find()`'s bridge once its lock appears, while a shim is starting one; undefined when none is being started. */
export async function awaitStartingBridge<T>(
  runtime: Pick<Runtime, "fs" | "env" | "paths">,
  find: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const deadline = Date.now() + MARKER_TTL_MS;
  while (Date.now() < deadline && (await markerFresh(runtime))) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const found = await find();
    if (found !== undefined) return found;
  }
  return undefined;
}

async function markerFresh(runtime: Pick<Runtime, "fs" | "env" | "paths">): Promise<boolean> {
  const dir = lockDir(runtime);
  const entries = await runtime.fs.readdir(dir).catch(() => []);
  for (const entry of entries) {
    if (!MARKER.test(entry.name)) continue;
    const stat = await runtime.fs.stat(`${dir}/${entry.name}`).catch(() => undefined);
    if (stat !== undefined && Date.now() - stat.mtimeMs < MARKER_TTL_MS) return true;
  }
  return false;
}
