// The benchmarks' one way to time a call (warm-up calls first, then the median of the timed ones)
// and to read a live process's CPU time.
import { readdirSync, readFileSync } from "node:fs";

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median milliseconds of `runs` calls of `fn` after `warmup` untimed ones. */
export async function medianTime(fn, { runs, warmup }) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * Medians of each side's calls (the bridge's, the server's own request, the no-op floor...), warmed
 * up, then taking turns call by call, so a burst of load hits them all alike.
 */
export async function takingTurns(sides, { runs, warmup }) {
  for (let i = 0; i < warmup; i++) for (const fn of Object.values(sides)) await fn();
  const times = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let i = 0; i < runs; i++) {
    for (const [side, fn] of Object.entries(sides)) {
      const t0 = performance.now();
      await fn();
      times[side].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([side, xs]) => [side, median(xs)]));
}

/** CPU time (ms) all threads of a live process used so far: schedstat's first field (ns), Linux only. */
export function cpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}
