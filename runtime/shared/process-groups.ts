// Process groups of children spawned with `processGroup: true` (src/ports/process.ts, SpawnOptions), on
// every runtime: signalling a whole tree, and ending each tree still running when this process
// exits. Such a tree is outside our process group, so neither the terminal's Ctrl-C nor its hangup
// reaches it; without the exit hook it would outlive the bridge as an orphan.
import { RuntimeError } from "../../src/ports/errors.ts";
import type { Child, KillSignal } from "../../src/ports/process.ts";
import { nodeErrorCode, toRuntimeError } from "./errors.ts";

const liveLeaders = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a group leader until `exited` settles, to send its group SIGTERM if we exit first.
 * Not longer: once the leader is reaped its pid can be reused, and a late kill(-pid) could reach a
 * stranger's group. What a leader leaves behind is for its owner to end with kill(sig, { group: true }).
 */
export function trackGroup(pid: number, exited: Promise<unknown>): void {
  liveLeaders.add(pid);
  void exited.finally(() => liveLeaders.delete(pid)).catch(() => {});
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // "exit" runs on process.exit() (runtime/shared/shutdown.ts) and when the event loop empties; only
  // synchronous work can happen here, which a signal is.
  process.once("exit", () => {
    for (const leader of liveLeaders) endGroup(leader);
  });
}

/** kill(-pid): every process of the group. A group already gone is not an error. */
function signalGroup(pid: number, signal: KillSignal): void {
  try {
    // Windows has no process groups to signal; its detached child is killed alone.
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch (err) {
    if (nodeErrorCode(err) !== "ESRCH") throw toRuntimeError(err);
  }
}

/** SIGTERM to a group from an exit or an abort, where a throw would crash the process. */
export function endGroup(pid: number): void {
  try {
    signalGroup(pid, "SIGTERM");
  } catch {
    // Out of our reach (EPERM): nothing more an exit or an abort can do.
  }
}

/**
 * Child.kill for every runtime: `killChild` signals the child alone (the runtime's own kill);
 * `{ group: true }` signals its group, which only a processGroup child leads.
 */
export function groupAwareKill(
  killChild: (signal: KillSignal) => void,
  child: { pid: number | undefined; processGroup: boolean },
): Child["kill"] {
  const { pid, processGroup } = child;
  return (signal = "SIGTERM", opts = {}) => {
    if (opts.group !== true) return killChild(signal);
    if (!processGroup) throw new RuntimeError("EINVAL", "kill(signal, { group: true }) needs a child spawned with processGroup: true");
    if (pid !== undefined) signalGroup(pid, signal);
  };
}

/** Runs `onAbort` when `signal` aborts, until `exited` settles (a child's abort, on every runtime). */
export function abortUntilExit(signal: AbortSignal | undefined, child: { exited: Promise<unknown>; onAbort: () => void }): void {
  const { exited, onAbort } = child;
  if (signal === undefined) return;
  signal.addEventListener("abort", onAbort, { once: true });
  void exited.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
}
