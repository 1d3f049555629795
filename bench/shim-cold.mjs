// Shim start-up, measured in one run against the floor of any Node process:
//   cold: shim spawn -> its answer to initialize, in a fresh project with no bridge, so the shim
//         starts the bridge itself (each bridge stopped after with `claude-ide-bridge stop`);
//   warm: the same with the project's bridge already running (what the shim alone costs);
//   floors: `node -e 0` spawn -> exit, and a bare node answering one stdin line.
// Runs are interleaved so a busy machine hits all alike; medians, and ratios to `node -e 0`.
// On Linux also the CPU the shim used until it answered (all threads), which load distorts less.
// Usage: node bench/shim-cold.mjs [runs=7] [bin=bin/claude-ide-bridge.js]   (run `npm run build` first)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMs } from "./timing.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const bin = resolve(process.argv[3] ?? join(root, "bin/claude-ide-bridge.js"));
const home = mkdtempSync(join(tmpdir(), "bench-shim-cold-"));
// TMPDIR inside: the bridges the shims start write their logs there, removed with the rest.
const env = { ...process.env, CLAUDE_CONFIG_DIR: join(home, "cfg"), CLAUDE_PROJECT_DIR: "", TMPDIR: home };
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
};
const children = new Set();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

/** Spawn -> first stdout line (an initialize written at once), or -> exit when `untilExit`. */
async function time(argv, cwd, untilExit = false) {
  const t = performance.now();
  const proc = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  children.add(proc);
  const exited = new Promise((r) => proc.once("exit", r));
  if (untilExit) {
    await exited;
    children.delete(proc);
    return { ms: performance.now() - t };
  }
  proc.stdin.write(`${JSON.stringify(INIT)}\n`);
  const line = await new Promise((r) => proc.stdout.once("data", (d) => r(String(d))));
  const ms = performance.now() - t;
  const cpu = cpuMs(proc.pid);
  if (!line.includes('"result"')) throw new Error(`no initialize result: ${line.slice(0, 300)}`);
  proc.kill("SIGKILL");
  await exited;
  children.delete(proc);
  return { ms, cpu };
}

function project(name) {
  const dir = join(home, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), "{}");
  return dir;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { nodeE0: [], nodeLine: [], warm: [], warmCpu: [], cold: [], coldCpu: [] };
try {
  const warmProject = project("warm");
  // The warm project's bridge, started by a first shim and left running (idle exit is minutes away).
  await time([process.execPath, bin, "shim"], warmProject);
  for (let i = 0; i < runs; i++) {
    results.nodeE0.push((await time([process.execPath, "-e", "0"], home, true)).ms);
    results.nodeLine.push(
      (await time([process.execPath, "-e", "process.stdin.once('data', () => process.stdout.write('{\"result\":1}\\n'))"], home)).ms,
    );
    const warm = await time([process.execPath, bin, "shim"], warmProject);
    results.warm.push(warm.ms);
    if (warm.cpu !== undefined) results.warmCpu.push(warm.cpu);
    const fresh = project(`cold-${i}`);
    const cold = await time([process.execPath, bin, "shim"], fresh);
    results.cold.push(cold.ms);
    if (cold.cpu !== undefined) results.coldCpu.push(cold.cpu);
    const stopped = spawnSync(process.execPath, [bin, "stop"], { cwd: fresh, env, encoding: "utf8" });
    if (stopped.status !== 0) throw new Error(`could not stop the bridge the shim started: ${stopped.stderr}`);
  }
  spawnSync(process.execPath, [bin, "stop"], { cwd: warmProject, env, encoding: "utf8" });
  const f = (x) => `${x.toFixed(0)} ms`;
  const base = median(results.nodeE0);
  // Ratios are what to read on a loaded machine; the load says how loaded it was.
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} (1, 5, 15 min)`,
  );
  console.log(`${bin}, median of ${runs}:`);
  console.log(`  node -e 0 (spawn -> exit):                     ${f(base)}`);
  console.log(
    `  bare node answering one line:                  ${f(median(results.nodeLine))} (${(median(results.nodeLine) / base).toFixed(2)}x node -e 0)`,
  );
  console.log(
    `  shim, bridge running (spawn -> initialize):    ${f(median(results.warm))} (${(median(results.warm) / base).toFixed(2)}x)${results.warmCpu.length ? `, CPU ${f(median(results.warmCpu))}` : ""}`,
  );
  console.log(
    `  shim, cold: starts the bridge (-> initialize): ${f(median(results.cold))} (${(median(results.cold) / base).toFixed(2)}x)${results.coldCpu.length ? `, shim CPU ${f(median(results.coldCpu))}` : ""}`,
  );
  console.log(`  cold runs: ${results.cold.map(f).join(", ")}`);
  if (process.env.BENCH_JSON === "1") {
    const row = (what, xs, target) => ({
      what,
      bridge: f(median(xs)),
      baseline: `node -e 0 ${f(base)}`,
      ratio: Math.round((median(xs) / base) * 100) / 100,
      target,
    });
    const rows = [
      row("shim cold start, starts the bridge (-> initialize)", results.cold, "<= 2"),
      row("shim start, bridge running (-> initialize)", results.warm, ""),
    ];
    console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
  }
} finally {
  for (const c of children) c.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
}
