// The bridge on node, bun and deno, measured in one run and given as ratios against node:
//  - cold start: process spawn to the first /health 200 (median of `runs`, runtimes interleaved);
//  - tools/call round trip over the Claude Code WebSocket, one call at a time (p50, p99 of 1000,
//    after 100 unmeasured warm-up calls), with the rate limits raised so they do not interfere;
//  - RSS of the bridge process after those calls (VmRSS in /proc/<pid>/status; Linux only).
// Each runtime starts through its documented entry: node bin/claude-ide-bridge.js (compiled
// dist/), bun run runtime/bun.ts, deno run -A runtime/deno.ts.
// Usage: node bench/runtimes.mjs [runs=5] [calls=1000]   (run `npm run build` first)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const calls = Number(process.argv[3] ?? 1000);
const WARMUP = 100;
const token = "bench-token-0123456789abcdef";
const bin = (name) => join(root, "node_modules", ".bin", name);
const entries = {
  node: [process.execPath, join(root, "bin", "claude-ide-bridge.js")],
  bun: [bin("bun"), "run", join(root, "runtime", "bun.ts")],
  deno: [bin("deno"), "run", "-A", join(root, "runtime", "deno.ts")],
  // Start-up only: the npm bin as `bunx --bun` and `deno run -A npm:` run it (Deno on dist/ JS).
  "bun bin": [bin("bun"), join(root, "bin", "claude-ide-bridge.js")],
  "deno bin": [bin("deno"), "run", "-A", join(root, "bin", "claude-ide-bridge.js")],
};
const names = Object.keys(entries);
const measured = ["node", "bun", "deno"];

const workspace = mkdtempSync(join(tmpdir(), "bench-ws-"));
mkdirSync(join(workspace, "src"));
writeFileSync(join(workspace, "package.json"), `${JSON.stringify({ name: "bench-app", version: "1.0.0" })}\n`);
writeFileSync(join(workspace, "src", "index.ts"), "export const answer = 42;\n".repeat(20));
const configDir = mkdtempSync(join(tmpdir(), "bench-cc-"));

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startBridge(name, extra = []) {
  const port = await freePort();
  const [exe, ...pre] = entries[name];
  const started = performance.now();
  const child = spawn(exe, [...pre, "--workspace", workspace, "--port", String(port), "--fixed-token", token, ...extra], {
    cwd: root,
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    stdio: ["ignore", "ignore", "ignore"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) {
      child.kill("SIGKILL");
      throw new Error(`${name}: no /health 200 within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const startMs = performance.now() - started;
  const stop = async () => {
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(killer);
  };
  return { port, pid: child.pid, startMs, stop };
}

function connect(port) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, ["mcp"], { headers: { "x-claude-code-ide-authorization": token } });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Sends one request and resolves with its response (one call in flight at a time). */
function call(ws, id, method, params) {
  return new Promise((resolve, reject) => {
    const onMessage = (data) => {
      const message = JSON.parse(String(data));
      if (message.id !== id) return;
      ws.off("message", onMessage);
      if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
      else resolve(message.result);
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
}

async function roundTrips(name) {
  const bridge = await startBridge(name, ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"]);
  try {
    const ws = await connect(bridge.port);
    let id = 0;
    await call(ws, ++id, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    const args = { name: "readFile", arguments: { path: "src/index.ts" } };
    for (let i = 0; i < WARMUP; i++) await call(ws, ++id, "tools/call", args);
    const times = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      const result = await call(ws, ++id, "tools/call", args);
      times.push(performance.now() - t0);
      if (result.isError) throw new Error(`${name}: readFile failed: ${JSON.stringify(result)}`);
    }
    const rssKb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${bridge.pid}/status`, "utf8"))?.[1]);
    ws.close();
    times.sort((a, b) => a - b);
    const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
    return { p50: pct(50), p99: pct(99), rssMb: rssKb / 1024 };
  } finally {
    await bridge.stop();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = Object.fromEntries(names.map((n) => [n, { starts: [] }]));
try {
  // Interleave the runtimes so that machine noise hits all alike.
  for (let i = 0; i < runs; i++) {
    for (const name of names) {
      const bridge = await startBridge(name);
      results[name].starts.push(bridge.startMs);
      await bridge.stop();
    }
  }
  for (const name of measured) Object.assign(results[name], await roundTrips(name));
} finally {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
}

const pad = (s, n) => String(s).padStart(n);
const ratio = (name, key, value) => (name === "node" ? "" : ` (${(value / results.node[key]).toFixed(2)}x)`);
console.log(`runtime | cold start to /health 200, median of ${runs} | tools/call over WS p50 | p99 | RSS after ${calls} calls`);
for (const name of names) {
  const r = results[name];
  r.start = median(r.starts);
  const calls = measured.includes(name)
    ? ` | ${pad(`${r.p50.toFixed(3)} ms${ratio(name, "p50", r.p50)}`, 18)} | ${pad(`${r.p99.toFixed(3)} ms${ratio(name, "p99", r.p99)}`, 18)}` +
      ` | ${pad(`${r.rssMb.toFixed(1)} MB${ratio(name, "rssMb", r.rssMb)}`, 16)}`
    : "";
  console.log(
    `${name.padEnd(8)} | ${pad(`${r.start.toFixed(0)} ms${ratio(name, "start", r.start)}`, 20)} [${r.starts.map((x) => x.toFixed(0)).join(", ")}]${calls}`,
  );
}
console.log("ratios are against node, measured in this run");
if (process.env.BENCH_JSON === "1") {
  const rows = ["bun", "deno"].map((name) => ({
    what: `start-up on ${name[0].toUpperCase()}${name.slice(1)} (spawn -> /health)`,
    bridge: `${results[name].start.toFixed(0)} ms`,
    baseline: `the bridge on Node ${results.node.start.toFixed(0)} ms`,
    ratio: Math.round((results[name].start / results.node.start) * 100) / 100,
    target: "reported",
  }));
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}
