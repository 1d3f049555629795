// What one MCP ping costs the bridge's own code on the Claude Code WebSocket, in process: the
// socket's onMessage (src/transports/ws/claude-code-socket.ts) through the session (decode, limits,
// the method table, the answer) to SafeSender's write, against the adapter floor of
// bench/ws-ping.mjs (JSON.parse, then JSON.stringify of the answer), in the same run. Bytes the
// young generation grows by per message (deterministic; run with a young generation large enough
// that no scavenge falls in a window) and nanoseconds per message, medians of several windows.
// The runtime adapter is left out: both sides of bench/ws-ping.mjs pay it alike.
// Usage: node --max-semi-space-size=64 bench/ws-message-alloc.mjs
import { getHeapSpaceStatistics } from "node:v8";
import { register } from "tsx/esm/api";
import { median } from "./timing.mjs";

register();
const src = (path) => import(new URL(`../${path}`, import.meta.url).href);
const { makeSession } = await src("test/helpers/session-fixture.ts");
const { claudeCodeSocket } = await src("src/transports/ws/claude-code-socket.ts");
const { SessionStore } = await src("src/mcp/sessions/session-store.ts");
const { silentLogger } = await src("src/log.ts");

const MESSAGES = 2000;
const WINDOWS = 41;

const fixture = makeSession({ requestsPerMinute: 1_000_000_000 });
const store = new SessionStore({ createSession: () => fixture.session, graceMs: 1000, logger: silentLogger });
let handlers;
const runtime = {
  upgradeWebSocket: (events) => {
    handlers = events;
    return () => undefined;
  },
  webSocketInfo: { bufferedAmount: () => 0 },
};
claudeCodeSocket({ runtime, token: "t", hostPolicy: { extraHosts: [] }, store, logger: silentLogger });
let written = 0;
const socket = { readyState: 1, send: (text) => (written += text.length), close: () => undefined };
const events = handlers({ req: { header: () => undefined } });
events.onOpen(new Event("open"), socket);
const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } };
events.onMessage({ data: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize }) }, socket);
const pings = Array.from({ length: MESSAGES }, (_, i) => ({ data: `{"jsonrpc":"2.0","id":${i + 1},"method":"ping"}` }));

const bridge = (message) => events.onMessage(message, socket);
const floor = (message) => socket.send(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(message.data).id, result: {} }));

const youngBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_used_size;

/** One window of `handle` over every ping: young-generation bytes (undefined when a scavenge fell in it) and ns per message. */
function window(handle) {
  const before = youngBytes();
  const t0 = performance.now();
  for (const message of pings) handle(message);
  const nanos = ((performance.now() - t0) * 1e6) / MESSAGES;
  const grown = youngBytes() - before;
  return { bytes: grown > 0 ? grown / MESSAGES : undefined, nanos };
}

for (let r = 0; r < 20; r++)
  for (const message of pings) {
    bridge(message);
    floor(message);
  }
// Windows taking turns, so the machine's noise hits both alike; a ratio per pair of windows.
const runs = { bridge: [], floor: [], bytes: [], time: [] };
for (let w = 0; w < WINDOWS; w++) {
  const b = window(bridge);
  const f = window(floor);
  runs.bridge.push(b);
  runs.floor.push(f);
  if (b.bytes !== undefined && f.bytes !== undefined) runs.bytes.push(b.bytes / f.bytes);
  runs.time.push(b.nanos / f.nanos);
}
if (written === 0) throw new Error("the socket wrote no answer");
const med = (side, key) => Math.round(median(runs[side].map((r) => r[key]).filter((x) => x !== undefined)));
const r2 = (x) => Math.round(x * 100) / 100;
console.log(
  `per ping, in process: bridge ${med("bridge", "bytes")} B, ${med("bridge", "nanos")} ns; floor ${med("floor", "bytes")} B, ${med("floor", "nanos")} ns`,
);
console.log(
  `bridge x${r2(median(runs.bytes))} the floor's bytes, x${r2(median(runs.time))} its time (medians of ${WINDOWS} windows of ${MESSAGES})`,
);
