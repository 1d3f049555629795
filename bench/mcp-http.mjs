// The MCP engine and its Streamable HTTP transport against the official SDK's servers, in one run:
//  - floor: a tool that does no I/O (the bridge's getWorkspaceFolders, the SDK servers' no-op tool),
//    one call at a time from the SDK client, median of RUNS after warm-up, the servers taking turns
//    in blocks so the machine's noise hits all alike;
//  - throughput: SESSIONS clients (one MCP session each) calling at once, CALLS_EACH calls each:
//    calls per second and the p99 of their latencies; median over ROUNDS rounds, servers interleaved.
//    Each session is a kept-alive socket written by hand (http1Connection), so the bench's own CPU
//    per call stays well under the servers' (it prints both).
// Each server is a process of its own on @hono/node-server (bench/fixtures/sdk-server.mjs for SDK
// v1 1.x and v2 2.x); the bridge is the real one (dist/, as `npm start` runs it).
// Usage: npm run build && node bench/mcp-http.mjs   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawn } from "node:child_process";
import { createConnection, createServer } from "node:net";
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
 * One kept-alive HTTP/1.1 connection that sends a request and reads its response whole (a length or
 * chunked body, the SSE answers included), written on a bare socket. The throughput runs use it, not
 * fetch: 16 fetch sessions cost the bench process more CPU per call than a server spends on it, so on
 * two cores the client's core ran out first and every server measured about the same (see the
 * "client CPU per call" line it prints).
 */
function http1Connection(url) {
  const { hostname, port, pathname } = new URL(url);
  let socket;
  let pending;
  let buffer = Buffer.alloc(0);
  const connect = () =>
    new Promise((resolve, reject) => {
      const own = createConnection({ host: hostname, port: Number(port) }, () => resolve());
      socket = own;
      buffer = Buffer.alloc(0);
      own.setNoDelay(true);
      // Only the current socket's end fails the request in flight: an old one closing late (the
      // server's idle timeout) must not touch the connection that replaced it.
      const lost = (err) => {
        if (socket !== own) return;
        socket = undefined;
        pending?.reject(err);
        pending = undefined;
      };
      own.on("error", (err) => {
        reject(err);
        lost(err);
      });
      own.on("close", () => lost(new Error("connection closed by the server")));
      own.on("data", (chunk) => {
        if (socket !== own) return;
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        parse();
      });
    });
  /** A whole response at the front of `buffer`: taken off it and handed to the waiting request. */
  const parse = () => {
    if (pending === undefined) return;
    const headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = buffer.toString("latin1", 0, headEnd);
    const status = Number(head.slice(9, 12));
    const headers = {};
    for (const line of head.split("\r\n").slice(1)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body;
    let end;
    if (headers["transfer-encoding"] === "chunked") {
      const parts = [];
      let at = headEnd + 4;
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(buffer.toString("latin1", at, lineEnd), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          end = lineEnd + 4;
          break;
        }
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString("utf8");
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < headEnd + 4 + length) return;
      body = buffer.toString("utf8", headEnd + 4, headEnd + 4 + length);
      end = headEnd + 4 + length;
    }
    buffer = buffer.subarray(end);
    const done = pending;
    pending = undefined;
    done.resolve({ status, headers, text: body });
  };
  const request = async (method, extraHeaders, body = "") => {
    if (socket === undefined) await connect();
    const lines = [`${method} ${pathname} HTTP/1.1`, `host: ${hostname}:${port}`, `content-length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(extraHeaders)) lines.push(`${name}: ${value}`);
    return new Promise((resolve, reject) => {
      pending = { resolve, reject };
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
  };
  return { request, close: () => socket?.destroy() };
}

/** http1Connection's interface on fetch (undici's pool of kept-alive sockets). */
function fetchConnection(url) {
  const request = async (method, headers, body) => {
    const response = await fetch(url, { method, headers, ...(method === "POST" ? { body } : {}) });
    return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  };
  return { request, close: () => {} };
}

/**
 * A Streamable HTTP session on its own connection (http1Connection), for the throughput runs;
 * BENCH_HTTP_CLIENT=fetch sends the same requests with fetch instead (what the runs used before).
 */
async function rawSession(server) {
  const connection = process.env.BENCH_HTTP_CLIENT === "fetch" ? fetchConnection(server.url) : http1Connection(server.url);
  const headers = { ...server.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
  // A kept-alive socket the server closed as it was reused (idle timeout under load): retried
  // once on a new connection, and counted.
  const send = (method, extra, body) =>
    connection.request(method, extra, body).catch(() => {
      resets[server.name] = (resets[server.name] ?? 0) + 1;
      return connection.request(method, extra, body);
    });
  const post = (message, extra = {}) => send("POST", { ...headers, ...extra }, JSON.stringify(message));
  const init = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-raw", version: "0" } },
  });
  const sid = init.headers["mcp-session-id"];
  if (sid === undefined) throw new Error(`${server.name}: no session id: ${init.text.slice(0, 200)}`);
  const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
  let id = 0;
  const call = async () => {
    const { status, text } = await post(
      { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: server.tool, arguments: {} } },
      session,
    );
    if (status !== 200 || !text.includes(`"id":${id}`) || !text.includes('"result"') || text.includes('"isError":true'))
      throw new Error(`${server.name}: ${status} ${text.slice(0, 200)}`);
  };
  return {
    call,
    close: async () => {
      await send("DELETE", { ...server.headers, ...session });
      connection.close();
    },
  };
}

const servers = [await bridgeServer(), await sdkServer("2"), await sdkServer("1")];
const figures = Object.fromEntries(servers.map((s) => [s.name, { floor: [], perSecond: [], p99: [], cpu: [], clientCpu: [] }]));
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
      const client0 = process.cpuUsage();
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
      const client = process.cpuUsage(client0);
      figures[server.name].clientCpu.push((client.user + client.system) / 1000 / (SESSIONS * CALLS_EACH));
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
    { floor: median(f.floor), perSecond: median(f.perSecond), p99: median(f.p99), cpu: median(f.cpu), clientCpu: median(f.clientCpu) },
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
// The bench process's own CPU per call while it drove each server: when it nears a server's, the
// client's core is what limits the calls per second, and the throughput ratio understates the servers'.
console.log(
  `client CPU per call (${process.env.BENCH_HTTP_CLIENT === "fetch" ? "fetch" : "bare HTTP/1.1"}), ${SESSIONS} sessions: ${servers.map((s) => `${s.name} ${r2(m[s.name].clientCpu)} ms`).join(", ")}`,
);
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
