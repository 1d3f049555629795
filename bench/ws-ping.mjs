// The Claude Code WebSocket's own cost: an MCP `ping` answered by the bridge (auth done at the
// upgrade, the message decoded and routed by the session, the answer encoded) against a bare `ws`
// server echoing the same bytes, in one run. One message in flight at a time, RUNS round trips
// each after a warm-up, in blocks of BLOCK taking turns so the machine's noise hits both alike.
// Usage: npm run build && node bench/ws-ping.mjs   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { register } from "tsx/esm/api";
import WebSocket from "ws";
import { settled } from "./cpu-profile.mjs";
import { cpuMs, median } from "./timing.mjs";

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const BLOCK = 10;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);

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

const echoPort = await freePort();
const echo = spawn(process.execPath, [new URL("fixtures/ws-echo.mjs", import.meta.url).pathname, String(echoPort)], {
  stdio: ["ignore", "pipe", "inherit"],
});
process.once("exit", () => echo.kill("SIGKILL"));
await new Promise((resolve) => echo.stdout.setEncoding("utf8").on("data", (d) => d.includes("listening") && resolve()));
const times = { bridge: [], echo: [] };
const cpu = { bridge: Number.NaN, echo: Number.NaN };
let bridge;
try {
  bridge = await startBridgeProcess({ args: ["--request-rate-limit", "100000"] });
  // Timed once the bridge is done starting (it keeps loading for a while after /health answers):
  // what is measured is a message's cost, not start-up work that happens to overlap it.
  const busy = await settled(cpuMs, bridge.proc.pid);
  if (!(busy < 0.05)) console.log(`note: the bridge never settled (${Math.round(busy * 100)}% of a core while idle)`);
  const toBridge = await open(bridge.wsUrl, [["mcp"], { headers: { "x-claude-code-ide-authorization": bridge.token } }]);
  const toEcho = await open(`ws://127.0.0.1:${echoPort}/`, [["mcp"]]);
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
    if (answer.id !== sent || (ws === toBridge && answer.result === undefined)) throw new Error(`ping: ${JSON.stringify(answer)}`);
  };
  // Long enough for V8 to have optimised both paths: after 200, a third of the bridge's CPU per ping
  // was still the compiler's threads, so the ratio measured warm-up, not a message's cost.
  for (let i = 0; i < WARMUP; i++) {
    await ping(toBridge);
    await ping(toEcho);
  }
  const cpu0 = { bridge: cpuMs(bridge.proc.pid), echo: cpuMs(echo.pid) };
  for (let done = 0; done < RUNS; done += BLOCK)
    for (const [name, ws] of [
      ["bridge", toBridge],
      ["echo", toEcho],
    ])
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await ping(ws);
        times[name].push(performance.now() - t0);
      }
  // Each server runs only for its own pings, so its CPU time over the timed part, per ping, is
  // what one message costs it (the round trip also holds the client's and the kernel's share).
  cpu.bridge = (cpuMs(bridge.proc.pid) - cpu0.bridge) / RUNS;
  cpu.echo = (cpuMs(echo.pid) - cpu0.echo) / RUNS;
  toBridge.close();
  toEcho.close();
} finally {
  echo.kill("SIGTERM");
  await bridge?.stop();
  await stopAllBridges();
}
const b = median(times.bridge);
const e = median(times.echo);
const r3 = (x) => Math.round(x * 1000) / 1000;
const rows = [
  {
    what: "WebSocket ping round trip",
    bridge: `${r3(b)} ms`,
    baseline: `bare ws echo ${r3(e)} ms`,
    ratio: Math.round((b / e) * 100) / 100,
    target: "<= 1.15",
  },
];
console.log(`WebSocket ping: bridge ${r3(b)} ms vs bare ws echo ${r3(e)} ms (x${rows[0].ratio}), medians of ${RUNS}`);
console.log(
  `server CPU per ping: bridge ${r3(cpu.bridge)} ms vs echo ${r3(cpu.echo)} ms (x${Math.round((cpu.bridge / cpu.echo) * 100) / 100})`,
);
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
