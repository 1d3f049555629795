// The MCP engine and its Streamable HTTP transport against the official SDK's servers, in one run:
//  - floor: a tool that does no I/O (the bridge's getWorkspaceFolders, the SDK servers' no-op tool),
//    one call at a time from the SDK client, median of RUNS after warm-up, the servers taking turns
//    in blocks so the machine's noise hits all alike;
//  - throughput: SESSIONS clients (one MCP session each) calling at once, CALLS_EACH calls each:
//    calls per second and the p99 of their latencies; median over ROUNDS rounds, servers interleaved.
// Each server is a process of its own on @hono/node-server (bench/fixtures/sdk-server.mjs for SDK
// v1 1.x and v2 2.x); the bridge is the real one (dist/, as `npm start` runs it).
// Usage: npm run build && node bench/mcp-http.mjs   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { register } from "tsx/esm/api";
import { cpuMs, median } from "./timing.mjs";

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const BLOCK = 50;
const SESSIONS = 16;
const CALLS_EACH = Number(process.env.BENCH_CALLS_EACH ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Connections reset under the throughput runs, per server (retried once each). */
const resets = {};

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function sdkServer(version) {
  const port = await freePort();
  const child = spawn(process.execPath, [new URL("fixtures/sdk-server.mjs", import.meta.url).pathname, version, String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Never left behind, even when a later server fails to start and the bench throws.
  process.once("exit", () => child.kill("SIGKILL"));
  await new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (d) => d.includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`SDK v${version} server exited (${code})`)));
  });
  return {
    name: `SDK v${version}`,
    url: `http://127.0.0.1:${port}/mcp`,
    headers: {},
    tool: "noop",
    pid: child.pid,
    stop: () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      return exited;
    },
  };
}

async function bridgeServer() {
  const bridge = await startBridgeProcess({
    args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000", "--max-sessions", "64"],
  });
  return {
    name: "bridge",
    url: bridge.mcpUrl,
    headers: { Authorization: `Bearer ${bridge.token}` },
    tool: "getWorkspaceFolders",
    pid: bridge.proc.pid,
    stop: () => bridge.stop(),
  };
}

async function session(server) {
  const client = new Client({ name: "bench-mcp-http", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
  const call = async () => {
    const result = await client.callTool({ name: server.tool, arguments: {} });
    if (result.isError) throw new Error(`${server.name}: ${JSON.stringify(result.content)}`);
  };
  return { call, close: () => client.close() };
}

/**
 * A bare Streamable HTTP client (fetch, the answer read whole and checked) for the throughput runs,
 * so the 16 sessions cost the bench process little next to the servers it measures.
 */
async function rawSession(server) {
  const headers = { ...server.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const post = async (message, extra = {}) => {
    const init = { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(message) };
    // A kept-alive socket the server closed as it was reused (idle timeout under load): fetch does
    // not retry a POST, so the bench does, once, and counts it.
    const response = await fetch(server.url, init).catch((err) => {
      if (err?.cause?.code !== "ECONNRESET") throw err;
      resets[server.name] = (resets[server.name] ?? 0) + 1;
      return fetch(server.url, init);
    });
    return { response, text: await response.text() };
  };
  const init = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-raw", version: "0" } },
  });
  const sid = init.response.headers.get("mcp-session-id");
  if (sid === null) throw new Error(`${server.name}: no session id: ${init.text.slice(0, 200)}`);
  const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
  let id = 0;
  const call = async () => {
    const { text } = await post({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: server.tool, arguments: {} } }, session);
    if (!text.includes(`"id":${id}`) || !text.includes('"result"') || text.includes('"isError":true'))
      throw new Error(`${server.name}: ${text.slice(0, 200)}`);
  };
  return { call, close: () => fetch(server.url, { method: "DELETE", headers: { ...server.headers, ...session } }).then((r) => r.text()) };
}

const servers = [await bridgeServer(), await sdkServer("2"), await sdkServer("1")];
const figures = Object.fromEntries(servers.map((s) => [s.name, { floor: [], perSecond: [], p99: [], cpu: [] }]));
try {
  // Floor: one session each, blocks of BLOCK calls in turn.
  const sessions = await Promise.all(servers.map(session));
  for (const s of sessions) for (let i = 0; i < 30; i++) await s.call();
  for (let done = 0; done < RUNS; done += BLOCK)
    for (const [k, s] of sessions.entries())
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await s.call();
        figures[servers[k].name].floor.push(performance.now() - t0);
      }
  await Promise.all(sessions.map((s) => s.close()));
  // Throughput: SESSIONS sessions at once, every call timed.
  for (let round = 0; round < ROUNDS; round++)
    for (const server of servers) {
      const clients = await Promise.all(Array.from({ length: SESSIONS }, () => rawSession(server)));
      for (const c of clients) await c.call();
      const latencies = [];
      const cpu0 = cpuMs(server.pid);
      const t0 = performance.now();
      await Promise.all(
        clients.map(async (c) => {
          for (let i = 0; i < CALLS_EACH; i++) {
            const t = performance.now();
            await c.call();
            latencies.push(performance.now() - t);
          }
        }),
      );
      const wall = performance.now() - t0;
      figures[server.name].cpu.push((cpuMs(server.pid) - cpu0) / (SESSIONS * CALLS_EACH));
      latencies.sort((a, b) => a - b);
      figures[server.name].perSecond.push((SESSIONS * CALLS_EACH * 1000) / wall);
      figures[server.name].p99.push(latencies[Math.floor(latencies.length * 0.99)]);
      await Promise.all(clients.map((c) => c.close()));
    }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await stopAllBridges();
}

const m = Object.fromEntries(
  Object.entries(figures).map(([name, f]) => [
    name,
    { floor: median(f.floor), perSecond: median(f.perSecond), p99: median(f.p99), cpu: median(f.cpu) },
  ]),
);
const r2 = (x) => Math.round(x * 100) / 100;
const rows = [
  {
    what: "no-op tools/call floor (HTTP)",
    bridge: `${r2(m.bridge.floor)} ms`,
    baseline: `SDK v2 ${r2(m["SDK v2"].floor)} ms`,
    ratio: r2(m.bridge.floor / m["SDK v2"].floor),
    target: "<= 1.5",
  },
  {
    what: "no-op tools/call floor (HTTP)",
    bridge: `${r2(m.bridge.floor)} ms`,
    baseline: `SDK v1 ${r2(m["SDK v1"].floor)} ms`,
    ratio: r2(m.bridge.floor / m["SDK v1"].floor),
    target: "",
  },
];
for (const base of ["SDK v2", "SDK v1"])
  rows.push({
    what: `HTTP throughput, ${SESSIONS} sessions (p99)`,
    bridge: `${Math.round(m.bridge.perSecond)}/s (${r2(m.bridge.p99)} ms)`,
    baseline: `${base} ${Math.round(m[base].perSecond)}/s (${r2(m[base].p99)} ms)`,
    ratio: r2(m.bridge.perSecond / m[base].perSecond),
    target: base === "SDK v2" ? ">= 1.5, p99 no worse" : "",
  });
// What load distorts least: the server process's own CPU time per call (all its threads).
for (const base of ["SDK v2", "SDK v1"])
  rows.push({
    what: `server CPU per call, ${SESSIONS} sessions`,
    bridge: `${r2(m.bridge.cpu)} ms`,
    baseline: `${base} ${r2(m[base].cpu)} ms`,
    ratio: r2(m.bridge.cpu / m[base].cpu),
    target: base === "SDK v2" ? "<= 0.67 (1.5x the calls per CPU second)" : "",
  });
if (Object.keys(resets).length > 0) console.log(`connections reset and retried: ${JSON.stringify(resets)}`);
for (const row of rows) console.log(`${row.what}: bridge ${row.bridge} vs ${row.baseline} (x${row.ratio})`);
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
