// The Claude Code WebSocket's own cost: an MCP `ping` answered by the bridge (auth done at the
// upgrade, the message decoded and routed by the session, the answer encoded) against a bare `ws`
// server echoing the same bytes, in one run. One message in flight at a time, RUNS round trips
// each after a warm-up, in blocks of BLOCK taking turns so the machine's noise hits all alike.
// A third server is the floor of the bridge's design on Node: the same runtime adapter
// (@hono/node-server's upgradeWebSocket on a `ws` server) answering the ping with JSON.parse and
// JSON.stringify and nothing else, so the bridge's own cost is what it spends above that floor.
// Usage: npm run build && node bench/ws-ping.mjs   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { register } from "tsx/esm/api";
import WebSocket from "ws";
import { settled } from "./cpu-profile.mjs";
import { cpuMs, median } from "./timing.mjs";

if (process.argv[2] === "--adapter-floor") await adapterFloorServer(Number(process.argv[3]));

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const BLOCK = 10;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
/** Warm-up goes on in steps of this many rounds while a server takes more page faults per ping than this (at most MAX_EXTRA_WARMUP rounds more). */
const WARMUP_STEP = 1000;
const WARM_FAULTS_PER_PING = 0.02;
const MAX_EXTRA_WARMUP = 20_000;

/** Minor page faults each process took so far (all its threads): /proc/<pid>/stat field 10, Linux only. */
function pageFaults(pids) {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      try {
        return [name, Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[7])];
      } catch {
        return [name, Number.NaN];
      }
    }),
  );
}

/** The most page faults per ping any server took between two pageFaults() readings `pings` apart. */
function faultsPerPing(before, after, pings) {
  return Math.max(...Object.keys(before).map((name) => (after[name] - before[name]) / pings));
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function open(url, opts) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ...opts);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** One message out, the next message in: resolves with it parsed. */
function roundTrip(ws, message) {
  return new Promise((resolve) => {
    ws.once("message", (data) => resolve(JSON.parse(String(data))));
    ws.send(message);
  });
}

/** The floor server (see the header): prints "listening" when ready, runs until killed. */
async function adapterFloorServer(port) {
  const { serve, upgradeWebSocket } = await import("@hono/node-server");
  const { Hono } = await import("hono");
  const { WebSocketServer } = await import("ws");
  const app = new Hono();
  const answer = (text) => JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(text).id, result: {} });
  app.get(
    "/",
    upgradeWebSocket(() => ({ onMessage: (event, ws) => ws.send(answer(event.data)) })),
  );
  const websocket = { server: new WebSocketServer({ noServer: true }) };
  serve({ fetch: app.fetch, hostname: "127.0.0.1", port, websocket }, () => console.log("listening"));
  await new Promise(() => {});
}

/** A server process of the bench's own, up once it prints "listening". */
async function startServer(args) {
  const port = await freePort();
  const child = spawn(process.execPath, [...args, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  process.once("exit", () => child.kill("SIGKILL"));
  await new Promise((resolve) => child.stdout.setEncoding("utf8").on("data", (d) => d.includes("listening") && resolve()));
  return { port, pid: child.pid, stop: () => child.kill("SIGTERM") };
}

const echo = await startServer([new URL("fixtures/ws-echo.mjs", import.meta.url).pathname]);
const floor = await startServer([new URL(import.meta.url).pathname, "--adapter-floor"]);
const times = { bridge: [], echo: [], floor: [] };
const cpu = { bridge: Number.NaN, echo: Number.NaN, floor: Number.NaN };
const pageFaultsPerPing = { bridge: Number.NaN, echo: Number.NaN, floor: Number.NaN };
let warmUp = Number.NaN;
let bridge;
try {
  bridge = await startBridgeProcess({ args: ["--request-rate-limit", "100000"] });
  // Timed once the bridge is done starting (it keeps loading for a while after /health answers):
  // what is measured is a message's cost, not start-up work that happens to overlap it.
  const busy = await settled(cpuMs, bridge.proc.pid);
  if (!(busy < 0.05)) console.log(`note: the bridge never settled (${Math.round(busy * 100)}% of a core while idle)`);
  const toBridge = await open(bridge.wsUrl, [["mcp"], { headers: { "x-claude-code-ide-authorization": bridge.token } }]);
  const toEcho = await open(`ws://127.0.0.1:${echo.port}/`, [["mcp"]]);
  const toFloor = await open(`ws://127.0.0.1:${floor.port}/`, [["mcp"]]);
  const init = await roundTrip(
    toBridge,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-ws", version: "0" } },
    }),
  );
  if (!init.result) throw new Error(`initialize: ${JSON.stringify(init)}`);
  toBridge.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  let id = 0;
  const ping = async (ws) => {
    const sent = ++id;
    const answer = await roundTrip(ws, JSON.stringify({ jsonrpc: "2.0", id: sent, method: "ping" }));
    if (answer.id !== sent || (ws !== toEcho && answer.result === undefined)) throw new Error(`ping: ${JSON.stringify(answer)}`);
  };
  const pids = { bridge: bridge.proc.pid, echo: echo.pid, floor: floor.pid };
  const round = async () => {
    await ping(toBridge);
    await ping(toEcho);
    await ping(toFloor);
  };
  // Long enough for V8 to have optimised both paths: after 200, a third of the bridge's CPU per ping
  // was still the compiler's threads, so the ratio measured warm-up, not a message's cost.
  // And until no server takes page faults any more: the bridge's young generation grows to 8 MB a
  // half while it starts (the floor's and the echo's stay smaller), and the first write to each of
  // its pages faults, which on a virtual machine is dear (it doubled the bridge's CPU per ping). It
  // happens once in a process's life, within its first 16 MB of allocations: a window that catches
  // it measures the heap's first use, not a message's cost.
  let warmRounds = 0;
  for (; warmRounds < WARMUP - WARMUP_STEP; warmRounds++) await round();
  for (;;) {
    const before = pageFaults(pids);
    for (let i = 0; i < WARMUP_STEP; i++) await round();
    warmRounds += WARMUP_STEP;
    if (faultsPerPing(before, pageFaults(pids), WARMUP_STEP) <= WARM_FAULTS_PER_PING || warmRounds >= WARMUP + MAX_EXTRA_WARMUP) break;
  }
  const cpu0 = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const faults0 = pageFaults(pids);
  for (let done = 0; done < RUNS; done += BLOCK)
    for (const [name, ws] of [
      ["bridge", toBridge],
      ["echo", toEcho],
      ["floor", toFloor],
    ])
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await ping(ws);
        times[name].push(performance.now() - t0);
      }
  // Each server runs only for its own pings, so its CPU time over the timed part, per ping, is
  // what one message costs it (the round trip also holds the client's and the kernel's share).
  for (const [name, pid] of Object.entries(pids)) cpu[name] = (cpuMs(pid) - cpu0[name]) / RUNS;
  const faults1 = pageFaults(pids);
  for (const name of Object.keys(pids)) pageFaultsPerPing[name] = (faults1[name] - faults0[name]) / RUNS;
  warmUp = warmRounds;
  toBridge.close();
  toEcho.close();
  toFloor.close();
} finally {
  echo.stop();
  floor.stop();
  await bridge?.stop();
  await stopAllBridges();
}
const b = median(times.bridge);
const e = median(times.echo);
const f = median(times.floor);
const r3 = (x) => Math.round(x * 1000) / 1000;
const r2 = (x) => Math.round(x * 100) / 100;
const rows = [
  { what: "WebSocket ping round trip", bridge: `${r3(b)} ms`, baseline: `bare ws echo ${r3(e)} ms`, ratio: r2(b / e), target: "<= 1.15" },
  {
    what: "WebSocket ping round trip",
    bridge: `${r3(b)} ms`,
    baseline: `adapter floor ${r3(f)} ms (${r2(f / e)}x echo)`,
    ratio: r2(b / f),
    target: "",
  },
];
console.log(`WebSocket ping: bridge ${r3(b)} ms vs bare ws echo ${r3(e)} ms (x${rows[0].ratio}), medians of ${RUNS}`);
console.log(`WebSocket ping: adapter floor (hono + JSON) ${r3(f)} ms (x${r2(f / e)} the echo); bridge x${rows[1].ratio} the floor`);
console.log(
  `server CPU per ping: bridge ${r3(cpu.bridge)} ms, echo ${r3(cpu.echo)} ms (x${r2(cpu.bridge / cpu.echo)}), floor ${r3(cpu.floor)} ms (bridge x${r2(cpu.bridge / cpu.floor)})`,
);
console.log(
  `page faults per ping: bridge ${r3(pageFaultsPerPing.bridge)}, echo ${r3(pageFaultsPerPing.echo)}, floor ${r3(pageFaultsPerPing.floor)}; after ${warmUp} warm-up rounds`,
);
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
