// Start-up cost: process spawn to the first /health 200, the bridge (compiled dist/) against a
// bare Hono server started the same way in the same run. Prints medians and their ratio.
// Usage: node bench/startup.mjs [runs=5] [other-checkout]   (run `npm run build` first; an other
// checkout, built too, is timed in the same interleaved runs: e.g. a worktree of an older commit)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMs, median } from "./timing.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const other = process.argv[3];
const token = "bench-token-0123456789abcdef";

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function timeToHealth(args, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "ignore"] });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } });
        if (response.status === 200) return { ms: performance.now() - started, cpu: cpuMs(child.pid) };
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 20_000) throw new Error(`no /health 200 within 20 s: ${args(port).join(" ")}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const configDir = mkdtempSync(join(tmpdir(), "bench-cc-"));
const bridge = [];
const baseline = [];
const others = [];
const bridgeArgs = (checkout) => (port) => [
  join(checkout, "bin/claude-ide-bridge.js"),
  "--workspace",
  root,
  "--port",
  String(port),
  "--fixed-token",
  token,
];
try {
  // Interleave the two so that machine noise hits both alike.
  for (let i = 0; i < runs; i++) {
    baseline.push(await timeToHealth((port) => [join(root, "bench/fixtures/bare-hono.mjs"), String(port)]));
    bridge.push(await timeToHealth(bridgeArgs(root), { CLAUDE_CONFIG_DIR: configDir }));
    if (other !== undefined) others.push(await timeToHealth(bridgeArgs(other), { CLAUDE_CONFIG_DIR: configDir }));
  }
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
// Ratios are what to read on a loaded machine; the load says how loaded it was.
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} (1, 5, 15 min)`,
);
const wall = (runs) => runs.map((r) => r.ms);
const cpu = (runs) => runs.map((r) => r.cpu).filter((x) => x !== undefined);
const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
const ratio = (a, b) => Math.round((median(a) / median(b)) * 100) / 100;
console.log(`bare hono  : median ${median(wall(baseline)).toFixed(0)} ms  [${fmt(wall(baseline))}]`);
console.log(`bridge     : median ${median(wall(bridge)).toFixed(0)} ms  [${fmt(wall(bridge))}]`);
console.log(`ratio bridge/bare hono: ${ratio(wall(bridge), wall(baseline))}x  (${runs} runs each, spawn -> first /health 200)`);
// CPU time until the first answer (Linux): what a busy machine distorts least, since time spent
// waiting for a core is not counted.
const cpuRow = cpu(bridge).length === runs && cpu(baseline).length === runs;
if (cpuRow)
  console.log(
    `CPU to the first answer: bridge ${median(cpu(bridge)).toFixed(0)} ms [${fmt(cpu(bridge))}], bare hono ${median(cpu(baseline)).toFixed(0)} ms [${fmt(cpu(baseline))}]: ${ratio(cpu(bridge), cpu(baseline))}x`,
  );
if (process.env.BENCH_JSON === "1") {
  const rows = [
    {
      what: "start-up on Node (spawn -> /health)",
      bridge: `${median(wall(bridge)).toFixed(0)} ms`,
      baseline: `bare Hono ${median(wall(baseline)).toFixed(0)} ms`,
      ratio: ratio(wall(bridge), wall(baseline)),
      target: "<= 1.3",
    },
  ];
  if (cpuRow)
    rows.push({
      what: "start-up on Node, CPU to /health",
      bridge: `${median(cpu(bridge)).toFixed(0)} ms`,
      baseline: `bare Hono ${median(cpu(baseline)).toFixed(0)} ms`,
      ratio: ratio(cpu(bridge), cpu(baseline)),
      target: "(<= 1.3 on a quiet machine)",
    });
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}
if (other !== undefined) {
  console.log(`${other}: median ${median(wall(others)).toFixed(0)} ms  [${fmt(wall(others))}]`);
  console.log(`ratio bridge/${other}: ${ratio(wall(bridge), wall(others))}x; ${other}/bare hono: ${ratio(wall(others), wall(baseline))}x`);
  if (cpu(others).length === runs)
    console.log(
      `CPU: ${other} ${median(cpu(others)).toFixed(0)} ms [${fmt(cpu(others))}]; bridge/${other} ${ratio(cpu(bridge), cpu(others))}x`,
    );
}
