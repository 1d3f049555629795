// Ending a debug adapter's process tree, and waiting on its start-up without outliving the caller's
// cancellation: what every adapter process of the engine needs.
import type { Child } from "../ports/spawn.ts";

const KILL_GRACE_MS = 2000;

/** SIGTERM to the adapter's whole tree (the program included), SIGKILL after a grace if anything is left. */
export async function endTree(child: Child): Promise<void> {
  signal(child, "SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, KILL_GRACE_MS);
  });
  await Promise.race([
    child.exited.then(
      () => {},
      () => {},
    ),
    late,
  ]);
  clearTimeout(timer);
  // Whatever the leader left in its group (a launched program that ignored SIGTERM) ends now.
  signal(child, "SIGKILL");
}

function signal(child: Child, name: "SIGTERM" | "SIGKILL"): void {
  try {
    child.kill(name, { group: true });
  } catch {
    // Already gone, or out of reach: nothing more to end.
  }
}

export function withAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(new Error("cancelled"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
