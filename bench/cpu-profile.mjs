// Reading a V8 .cpuprofile (`node --cpu-prof`): self time by function, and by where the code came
// from (a dist/ chunk, a package in node_modules, Node's own modules), optionally only the samples
// taken before a moment (a start-up up to its first answer): V8 stamps samples with the monotonic
// clock that process.hrtime reads, so another process can name that moment.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The one .cpuprofile written in `dir`, parsed. */
export async function readProfile(dir) {
  const file = (await readdir(dir)).find((n) => n.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error(`no profile written in ${dir}`);
  return { path: join(dir, file), profile: JSON.parse(await readFile(join(dir, file), "utf8")) };
}

/** Where a frame's code lives: "node:internal", "pkg hono", "dist node-chunk-X.js", or the file. */
function origin(url, repo) {
  if (url === "") return "(native or V8)";
  if (url.startsWith("node:")) return "node: built-in modules";
  const path = url.replace(/^file:\/\//, "");
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `package ${pkg[1]}`;
  return path.replace(repo, "");
}

/** Now on the clock the profile's timestamps use (microseconds of the monotonic clock). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time (ms) per function and per origin, over the samples taken up to `untilMicros`
 * (monotonicMicros() of that moment; all of them when undefined): samples times the sampling
 * interval, close to CPU time.
 */
export function selfTimes(profile, { repo, untilMicros }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map();
  const byOrigin = new Map();
  const gaps = [...profile.timeDeltas].sort((a, b) => a - b);
  const interval = (gaps[Math.floor(gaps.length / 2)] ?? 1000) / 1000;
  let stamp = profile.startTime;
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // Each sample counts one sampling interval: on a loaded machine the gap before a sample is
    // mostly time the process was not running at all, which is no cost of the code it was in.
    const ms = interval;
    stamp += profile.timeDeltas[i] ?? 0;
    if (untilMicros !== undefined && stamp > untilMicros) break;
    const f = byId.get(profile.samples[i]).callFrame;
    total += ms;
    if (f.functionName === "(idle)") idle += ms;
    const where = f.url === "" ? "" : `${f.url.replace(/^file:\/\//, "").replace(repo, "")}:${f.lineNumber + 1}`;
    const key = `${f.functionName || "(anonymous)"} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const from = f.functionName.startsWith("(") ? f.functionName : origin(f.url, repo);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + ms);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, idleMs: idle, byFunction: sorted(byFunction), byOrigin: sorted(byOrigin) };
}

/** The top `n` rows of a [name, ms] list, one per line. */
export function printTop(title, rows, n) {
  console.log(title);
  for (const [key, ms] of rows.slice(0, n)) console.log(`  ${(Math.round(ms * 100) / 100).toString().padStart(8)} ms  ${key}`);
}

/**
 * Waits until a process is quiet: under `busyFraction` of one core over each of two windows of
 * `windowMs` in a row (a bridge keeps starting things for a while after it answers /health), or
 * `maxMs` pass. Returns the CPU fraction of the last window, so a bench can say it never settled.
 */
export async function settled(cpuMs, pid, { windowMs = 200, busyFraction = 0.02, maxMs = 10_000 } = {}) {
  const deadline = performance.now() + maxMs;
  let quietWindows = 0;
  let fraction = Number.NaN;
  while (quietWindows < 2 && performance.now() < deadline) {
    const c0 = cpuMs(pid);
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    fraction = (cpuMs(pid) - c0) / (performance.now() - t0);
    quietWindows = fraction < busyFraction ? quietWindows + 1 : 0;
  }
  return fraction;
}
