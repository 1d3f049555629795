// How long the event loop was held while `work` ran: a 1 ms timer's longest gap between ticks, and
// how many ticks it got. Code that gives the loop a turn every few milliseconds shows a longest
// gap that is a small part of the whole; code that holds it shows one gap as long as the work.
export interface Turns {
  ms: number;
  longest: number;
  ticks: number;
}

export async function measureTurns<T>(work: () => Promise<T>): Promise<Turns & { value: T }> {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks++;
  }, 1);
  const started = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - started;
    return { value, ms, longest: Math.max(longest, performance.now() - last), ticks };
  } finally {
    clearInterval(timer);
  }
}
