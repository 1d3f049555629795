// Cooperative scheduling for long loops in tool handlers: a loop that runs on resolved promises only
// (an async generator's consumer, a big directory listing) never lets timers or I/O run, so one
// call could starve every other session, /ping and the signal handlers. A Yielder gives the event
// loop a turn whenever the loop has held it for longer than its budget.
const DEFAULT_BUDGET_MS = 5;

export interface Yielder {
  /** Resolves at once while within budget; otherwise after one macrotask turn. */
  maybeYield(): Promise<void>;
}

export function createYielder(budgetMs = DEFAULT_BUDGET_MS): Yielder {
  let since = performance.now();
  return {
    async maybeYield() {
      if (performance.now() - since < budgetMs) return;
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      since = performance.now();
    },
  };
}
