// One shutdown sequence per process: SIGINT/SIGTERM/SIGHUP or an explicit shutdown() runs every registered
// handler once (removing the lock file, closing sockets), then exits. Process-wide on purpose:
// signals are.
const handlers: Array<() => Promise<void>> = [];
/** Cleanup must not hang the exit forever (a stuck socket, a wedged language server). */
const SHUTDOWN_CAP_MS = 5_000;

let running: Promise<never> | undefined;
let signalsInstalled = false;

export function onShutdown(fn: () => Promise<void>): void {
  handlers.push(fn);
  if (signalsInstalled) return;
  signalsInstalled = true;
  // Installed on first use, so merely creating a runtime (in tests) does not take over Ctrl-C.
  // SIGHUP is a closed terminal: without a handler it kills the bridge and leaves a stale lock,
  // so it cleans up like SIGTERM.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      // A second Ctrl-C while cleaning up means "now".
      if (running !== undefined) process.exit(signal === "SIGINT" ? 130 : 143);
      void shutdown(0);
    });
  }
}

/** Runs every handler once (at most 5 s in all), then exits with `exitCode`. */
export function shutdown(exitCode = 0): Promise<never> {
  running ??= (async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_CAP_MS)));
    const settled = Promise.allSettled(handlers.map((fn) => Promise.resolve().then(fn))).then((results) => {
      for (const result of results) {
        if (result.status === "rejected") console.error("[claude-ide-bridge] error during shutdown:", result.reason);
      }
    });
    await Promise.race([settled, cap]);
    clearTimeout(timer);
    process.exit(exitCode);
  })();
  return running;
}
