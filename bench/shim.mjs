// The shim's cost and its reason to exist, measured in one run against one bridge:
//   1. added latency: tools/call through the shim (stdin -> WS -> bridge -> WS -> stdout) against
//      the same call on a direct WebSocket, interleaved in blocks so noise hits both alike;
//   2. recovery: kill -9 of the bridge, a new bridge process (same port: the session comes back
//      from the checkpoint; new port: the shim replays initialize), and the time from the new
//      process's spawn (and from its "listening" line) to the first successful call through the
//      shim, which was sent right at the spawn and waited in the shim's queue;
//   3. start-up: shim process spawn to the answer of its first initialize, against a bare
//      `node -e` that answers one line (the floor of any Node process); on Linux also the CPU
//      time the process used until then (all threads), which a busy machine distorts far less;
//   4. cold start with no bridge: shim spawn to initialize answered when the shim has to start
//      the bridge itself (a fresh project each time; each bridge stopped after).
// Usage: node bench/shim.mjs [calls=1000] [restarts=5]   (run `npm run build` first)
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { cpuMs } from "./timing.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin/claude-ide-bridge.js");
const calls = Number(process.argv[2] ?? 1000);
const restarts = Number(process.argv[3] ?? 5);
const BLOCK = 100;
const WARMUP = 200;
const LIMITS = ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"];
const CALL = { method: "tools/call", params: { name: "getWorkspaceFolders", arguments: {} } };
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } };

const home = mkdtempSync(join(tmpdir(), "bench-shim-"));
const workspace = join(home, "ws");
const configDir = join(home, "cfg");
mkdirSync(workspace);
const env = { ...process.env, CLAUDE_CONFIG_DIR: configDir };
const children = new Set();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

function startBridge(port = 0) {
  const spawnedAt = performance.now();
  const token = randomBytes(16).toString("hex");
  const proc = spawn(process.execPath, [bin, "--workspace", workspace, "--port", String(port), "--fixed-token", token, ...LIMITS], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.add(proc);
  proc.once("exit", () => children.delete(proc));
  let err = "";
  return new Promise((resolve, reject) => {
    proc.stderr.setEncoding("utf8").on("data", (d) => {
      err += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolve({ proc, port: Number(m[1]), token, spawnedAt, listeningAt: performance.now() });
    });
    proc.once("exit", () => reject(new Error(`bridge exited: ${err}`)));
  });
}

async function kill(bridge) {
  bridge.proc.kill("SIGKILL");
  if (bridge.proc.exitCode === null && bridge.proc.signalCode === null) await new Promise((r) => bridge.proc.once("exit", r));
}

/** A JSON-RPC peer over lines or frames: `request` resolves with the response, in order. */
function peer(sendText) {
  const waiting = new Map();
  let next = 1;
  return {
    onText(text) {
      const msg = JSON.parse(text);
      const w = waiting.get(msg.id);
      if (w) {
        waiting.delete(msg.id);
        w(msg);
      }
    },
    request(method, params) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        sendText(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      });
    },
  };
}

async function direct(bridge) {
  const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/`, ["mcp"], {
    headers: { "x-claude-code-ide-authorization": bridge.token },
    perMessageDeflate: false,
  });
  const p = peer((t) => ws.send(t));
  ws.on("message", (d) => p.onText(d.toString()));
  await new Promise((r, j) => ws.once("open", r).once("error", j));
  await p.request("initialize", INIT);
  ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { ...p, close: () => ws.close() };
}

async function throughShim() {
  // --no-spawn: the restarts below are the bench's own; the shim must wait for them.
  const proc = spawn(process.execPath, [bin, "shim", "--no-spawn", "--connect-timeout", "30000"], {
    cwd: workspace,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.add(proc);
  let stderr = "";
  proc.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  /** Resolves once the shim's stderr satisfies `pred` (checked as each chunk arrives). */
  const untilStderr = (pred) =>
    new Promise((resolve) => {
      const check = () => {
        if (!pred(stderr)) return;
        proc.stderr.off("data", check);
        resolve();
      };
      proc.stderr.on("data", check);
      check();
    });
  const p = peer((t) => proc.stdin.write(`${t}\n`));
  let buf = "";
  proc.stdout.setEncoding("utf8").on("data", (d) => {
    buf += d;
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      p.onText(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  await p.request("initialize", INIT);
  proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return { ...p, stderr: () => stderr, untilStderr, close: () => proc.kill("SIGKILL") };
}

async function timeCalls(client, n, into) {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await client.request(CALL.method, CALL.params);
    if (!res.result) throw new Error(`call failed: ${JSON.stringify(res)}`);
    into?.push(performance.now() - t);
  }
}

/** Spawn to the first stdout line, having written an initialize at once; and the CPU used by then. */
async function firstLine(argv, cwd = workspace) {
  const t = performance.now();
  const proc = spawn(argv[0], argv.slice(1), { cwd, env: { ...env, CLAUDE_PROJECT_DIR: "" }, stdio: ["pipe", "pipe", "ignore"] });
  children.add(proc);
  proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT })}\n`);
  await new Promise((r) => proc.stdout.once("data", r));
  const elapsed = performance.now() - t;
  const cpu = cpuMs(proc.pid);
  proc.kill("SIGKILL");
  await new Promise((r) => proc.once("exit", r));
  children.delete(proc);
  return { elapsed, cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${x.toFixed(3)} ms`;

try {
  let bridge = await startBridge();
  const ws = await direct(bridge);
  const shim = await throughShim();
  await timeCalls(ws, WARMUP);
  await timeCalls(shim, WARMUP);
  const viaWs = [];
  const viaShim = [];
  for (let done = 0; done < calls; done += BLOCK) {
    await timeCalls(ws, Math.min(BLOCK, calls - done), viaWs);
    await timeCalls(shim, Math.min(BLOCK, calls - done), viaShim);
  }
  ws.close();
  console.log(`tools/call getWorkspaceFolders, ${calls} sequential calls each, interleaved in blocks of ${BLOCK}:`);
  console.log(`  direct WebSocket: median ${ms(median(viaWs))}, p90 ${ms(pct(viaWs, 0.9))}`);
  console.log(`  through the shim: median ${ms(median(viaShim))}, p90 ${ms(pct(viaShim, 0.9))}`);
  console.log(
    `  added by the shim: ${ms(median(viaShim) - median(viaWs))} (median vs median); ratio ${(median(viaShim) / median(viaWs)).toFixed(2)}x`,
  );

  for (const mode of ["same port", "new port"]) {
    const fromSpawn = [];
    const fromListening = [];
    for (let i = 0; i < restarts; i++) {
      const closedBefore = shim.stderr().split("bridge connection closed").length;
      await kill(bridge);
      // A request sent before the shim saw the socket drop would (rightly) fail as in flight.
      await shim.untilStderr((text) => text.split("bridge connection closed").length > closedBefore);
      const port = mode === "same port" ? bridge.port : 0;
      const answered = shim.request(CALL.method, CALL.params); // queued in the shim until the bridge is back
      const starting = startBridge(port);
      const res = await answered;
      const done = performance.now();
      bridge = await starting;
      if (!res.result) throw new Error(`call after restart failed: ${JSON.stringify(res)}`);
      fromSpawn.push(done - bridge.spawnedAt);
      fromListening.push(done - bridge.listeningAt);
    }
    console.log(
      `kill -9 + restart (${mode}), ${restarts} times: first successful call through the shim ` +
        `${ms(median(fromSpawn))} after the new process was spawned (median), ${ms(median(fromListening))} after it logged "listening"`,
    );
  }
  const startups = [];
  const floors = [];
  for (let i = 0; i < 10; i++) {
    floors.push(await firstLine([process.execPath, "-e", "process.stdin.once('data', () => process.stdout.write('{}\\n'))"]));
    startups.push(await firstLine([process.execPath, bin, "shim"]));
  }
  const wall = (xs) => median(xs.map((x) => x.elapsed));
  console.log(
    `shim start-up (spawn -> initialize answered, median of 10): ${ms(wall(startups))}; bare node answering one line: ${ms(wall(floors))}`,
  );
  if (startups.every((x) => x.cpu !== undefined)) {
    const cpu = (xs) => median(xs.map((x) => x.cpu));
    console.log(
      `  CPU time used by then (all threads, median): shim ${ms(cpu(startups))}, bare node ${ms(cpu(floors))}; ratio ${(cpu(startups) / cpu(floors)).toFixed(2)}x`,
    );
  }
  const cold = [];
  for (let i = 0; i < 5; i++) {
    const project = mkdtempSync(join(home, "project-"));
    writeFileSync(join(project, "package.json"), "{}");
    cold.push(await firstLine([process.execPath, bin, "shim"], project));
    const stopped = spawnSync(process.execPath, [bin, "stop"], { cwd: project, env, encoding: "utf8" });
    if (stopped.status !== 0) throw new Error(`could not stop the bridge the shim started: ${stopped.stderr}`);
  }
  console.log(
    `cold start, no bridge running (shim spawn -> initialize answered, the shim starting the bridge; median of 5): ${ms(wall(cold))}`,
  );
  const log = shim.stderr();
  console.log(
    `  shim: ${(log.match(/: resumed, initialized/g) ?? []).length} sessions resumed, ${(log.match(/replayed initialize/g) ?? []).length} initialize replays`,
  );
  shim.close();
  await kill(bridge);
} finally {
  for (const c of children) c.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
}
