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
