// `--idle-timeout`: a bridge nobody uses goes away by itself. The shim starts bridges
// detached, so without this each project ever opened would keep one running forever. Checked on
// a timer rather than wired into every session change: a minute's precision is plenty here.
interface IdleExitOptions {
  idleMs: number;
  /** True while any client holds a session (connected, in its grace period, or an HTTP session). */
  isBusy(): boolean;
  onIdle(): void;
  now?: () => number;
}

export interface IdleExit {
  stop(): void;
}

/** How often to look: often enough to exit close to the deadline, never more than every 5 s. */
export function idleCheckInterval(idleMs: number): number {
  return Math.min(5_000, Math.max(100, Math.floor(idleMs / 4)));
}

export function startIdleExit(opts: IdleExitOptions): IdleExit {
  const now = opts.now ?? Date.now;
  let lastBusy = now();
  const timer = setInterval(() => {
    if (opts.isBusy()) {
      lastBusy = now();
    } else if (now() - lastBusy >= opts.idleMs) {
      clearInterval(timer);
      opts.onIdle();
    }
  }, idleCheckInterval(opts.idleMs));
  return { stop: () => clearInterval(timer) };
}
