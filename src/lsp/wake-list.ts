// Waiters woken by an event, each with its own deadline and abort signal: how the LSP client waits
// for a server's progress to end or its diagnostics to arrive without polling.
export class WakeList {
  private waiters: (() => void)[] = [];

  /** Resolves on the next wake(), at `deadline`, or when `signal` aborts, whichever is first. */
  wait(deadline: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      signal.addEventListener("abort", done, { once: true });
      this.waiters.push(done);
    });
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
