// Start-up cost: process spawn to the first /health 200, the bridge (bin/claude-ide-bridge.js, on
// Node its bundle) against a bare Hono server started the same way in the same run; and spawn to
// the first MCP initialize answered over POST /mcp, which is when the bridge can serve a client
// (each timed on a process of its own, so each is the process's first request). Prints medians and
// their ratios, wall time and CPU time.
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
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
});

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The first /health 200. */
async function health(port) {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status === 200;
}

/** The first initialize answered with a result (as JSON or as an SSE event). */
async function initialize(port) {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: INITIALIZE,
  });
  const text = await response.text();
  if (response.status === 200 && text.includes('"result"')) return true;
  throw new Error(`initialize: HTTP ${response.status}: ${text.slice(0, 200)}`);
}

async function timeTo(probe, args, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "ignore"] });
  try {
    for (;;) {
      try {
        if (await probe(port)) return { ms: performance.now() - started, cpu: cpuMs(child.pid) };
      } catch (err) {
        // Not listening yet; anything else is a broken bridge.
        if (!/fetch failed/.test(String(err))) throw err;
      }
      if (performance.now() - started > 20_000) throw new Error(`no answer within 20 s: ${args(port).join(" ")}`);
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
const bridgeInit = [];
const otherInit = [];
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
    const env = { CLAUDE_CONFIG_DIR: configDir };
    baseline.push(await timeTo(health, (port) => [join(root, "bench/fixtures/bare-hono.mjs"), String(port)]));
    bridge.push(await timeTo(health, bridgeArgs(root), env));
    bridgeInit.push(await timeTo(initialize, bridgeArgs(root), env));
    if (other !== undefined) {
      others.push(await timeTo(health, bridgeArgs(other), env));
      otherInit.push(await timeTo(initialize, bridgeArgs(other), env));
    }
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
const row = (name, xs) => console.log(`${name.padEnd(24)}: median ${median(xs).toFixed(0)} ms  [${fmt(xs)}]`);
row("bare hono /health", wall(baseline));
row("bridge /health", wall(bridge));
row("bridge initialize", wall(bridgeInit));
console.log(`ratio bridge/bare hono: ${ratio(wall(bridge), wall(baseline))}x  (${runs} runs each, spawn -> first /health 200)`);
console.log(
  `ratio bridge initialize/bare hono /health: ${ratio(wall(bridgeInit), wall(baseline))}x  (spawn -> first MCP initialize answered)`,
);
// CPU time until the first answer (Linux): what a busy machine distorts least, since time spent
// waiting for a core is not counted.
const cpuRow = [bridge, baseline, bridgeInit].every((xs) => cpu(xs).length === runs);
if (cpuRow) {
  console.log(`CPU bare hono /health    : median ${median(cpu(baseline)).toFixed(0)} ms [${fmt(cpu(baseline))}]`);
  console.log(
    `CPU bridge /health       : median ${median(cpu(bridge)).toFixed(0)} ms [${fmt(cpu(bridge))}]: ${ratio(cpu(bridge), cpu(baseline))}x`,
  );
  console.log(
    `CPU bridge initialize    : median ${median(cpu(bridgeInit)).toFixed(0)} ms [${fmt(cpu(bridgeInit))}]: ${ratio(cpu(bridgeInit), cpu(baseline))}x`,
  );
}
if (process.env.BENCH_JSON === "1") {
  const rows = [
    {
      what: "start-up on Node (spawn -> /health)",
      bridge: `${median(wall(bridge)).toFixed(0)} ms`,
      baseline: `bare Hono ${median(wall(baseline)).toFixed(0)} ms`,
      ratio: ratio(wall(bridge), wall(baseline)),
      target: "<= 1.3",
    },
    {
      what: "start-up on Node (spawn -> MCP initialize answered)",
      bridge: `${median(wall(bridgeInit)).toFixed(0)} ms`,
      baseline: `bare Hono /health ${median(wall(baseline)).toFixed(0)} ms`,
      ratio: ratio(wall(bridgeInit), wall(baseline)),
      target: "<= 1.3",
    },
  ];
  if (cpuRow)
    rows.push(
      {
        what: "start-up on Node, CPU to /health",
        bridge: `${median(cpu(bridge)).toFixed(0)} ms`,
        baseline: `bare Hono ${median(cpu(baseline)).toFixed(0)} ms`,
        ratio: ratio(cpu(bridge), cpu(baseline)),
        target: "(<= 1.3 on a quiet machine)",
      },
      {
        what: "start-up on Node, CPU to initialize answered",
        bridge: `${median(cpu(bridgeInit)).toFixed(0)} ms`,
        baseline: `bare Hono /health ${median(cpu(baseline)).toFixed(0)} ms`,
        ratio: ratio(cpu(bridgeInit), cpu(baseline)),
        target: "(<= 1.3 on a quiet machine)",
      },
    );
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}
if (other !== undefined) {
  row(`${other} /health`, wall(others));
  row(`${other} initialize`, wall(otherInit));
  console.log(
    `ratio bridge/${other}: /health ${ratio(wall(bridge), wall(others))}x, initialize ${ratio(wall(bridgeInit), wall(otherInit))}x`,
  );
  if (cpu(others).length === runs && cpu(otherInit).length === runs)
    console.log(
      `CPU ${other}: /health ${median(cpu(others)).toFixed(0)} ms [${fmt(cpu(others))}], initialize ${median(cpu(otherInit)).toFixed(0)} ms [${fmt(cpu(otherInit))}]; bridge/${other} /health ${ratio(cpu(bridge), cpu(others))}x, initialize ${ratio(cpu(bridgeInit), cpu(otherInit))}x`,
    );
}
