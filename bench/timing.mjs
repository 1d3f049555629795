// The benchmarks' one way to time a call: warm-up calls first, then the median of the timed ones.
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
