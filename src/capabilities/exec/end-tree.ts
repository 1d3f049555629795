// How a command's process tree ends (ctx.exec runs every child as the leader of its own process
// group). A stop (cancellation or timeout) sends the group SIGTERM at once (Runtime.spawn's signal)
// and SIGKILL after a grace, so a program that ignores or traps SIGTERM cannot keep the call
// waiting. When the leader has exited, whatever it left in its group is ended too: a background job
// (`server &` in an npm script) would otherwise run on unseen, and one that still holds the output
// pipes would keep the call waiting for an end of output that never comes.
import type { Child, KillSignal } from "../../ports/spawn.ts";

/** From SIGTERM to SIGKILL. */
const KILL_GRACE_MS = 2000;
/** How long output may go on after the leader exited before its leftovers are ended. */
const LINGER_MS = 500;

type Group = Pick<Child, "kill">;

/** Sends the group SIGKILL `KILL_GRACE_MS` after `stop` aborts, unless `done` comes first. */
export function killAfterGrace(child: Group, opts: { stop: AbortSignal; done: Promise<unknown> }): void {
  const { stop, done } = opts;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onStop = () => {
    timer = setTimeout(() => signalGroup(child, "SIGKILL"), KILL_GRACE_MS);
  };
  if (stop.aborted) onStop();
  else stop.addEventListener("abort", onStop, { once: true });
  void done
    .finally(() => {
      stop.removeEventListener("abort", onStop);
      clearTimeout(timer);
    })
    .catch(() => {});
}

/**
 * After the leader exited: ends what is left of its group and waits for the output to end, cutting
 * the reading short (`stopReading`) if something outside the group still holds the pipes.
 * Resolves true when something still held the output open after the leader exited.
 */
export async function endLeftovers(child: Group, opts: { output: Promise<unknown>; stopReading: AbortController }): Promise<boolean> {
  const { output, stopReading } = opts;
  const drained = await settlesWithin(output, LINGER_MS);
  signalGroup(child, "SIGTERM");
  if (drained) {
    // A leftover that ignores SIGTERM but holds no pipe must not outlive the call either.
    setTimeout(() => signalGroup(child, "SIGKILL"), KILL_GRACE_MS);
    return false;
  }
  if (!(await settlesWithin(output, KILL_GRACE_MS))) {
    signalGroup(child, "SIGKILL");
    if (!(await settlesWithin(output, LINGER_MS))) stopReading.abort();
  }
  return true;
}

function signalGroup(child: Group, signal: KillSignal): void {
  try {
    child.kill(signal, { group: true });
  } catch {
    // A group out of our reach (EPERM) or never started: nothing more to do.
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
