// Large responses over Streamable HTTP (attack finding C): every streamed response is kept so a
// client that lost its connection can replay it with Last-Event-ID, but a response delivered to a
// connected client is not worth keeping, and what is kept is bounded in bytes per session. So 120
// reads of 1 MiB (readFile's largest) on one session must not leave the bridge ~150 MB larger.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { CAN_READ_RSS, rssMiB } from "../helpers/process-memory.ts";

const FILE_BYTES = 4_000_000;
/** readFile's largest maxBytes. */
const READ_BYTES = 1024 * 1024;
const READS = 120;
/**
 * Each response is ~1.2 MB on the wire (numbered lines, JSON-escaped); the old store kept the last
 * 50 streams (~60 MB) on top of the heap's own growth under this churn (~50 MB). The exact byte
 * bound is proven by the unit tests of src/transports/http/sse-channel.ts; this is the whole-process
 * check that nothing else holds on to responses.
 */
const RSS_GROWTH_BOUND_MIB = 80;

let bridge: BridgeProcess;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  // The largest result size, so a 1 MiB read comes back whole.
  bridge = await startBridgeProcess({ args: ["--max-result-size", "4096", "--tool-rate-limit", "10000"] });
  const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
  await writeFile(join(bridge.workspace, "big.txt"), line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES));
  client = new Client({ name: "big-reads", version: "0.0.0" });
  transport = new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  await client.connect(transport);
});
afterAll(async () => {
  await transport?.terminateSession().catch(() => undefined);
  await client?.close().catch(() => undefined);
  await bridge?.stop();
});

/** Reads 1 MiB of the file; returns the length of the text that came back. */
async function readBig(): Promise<number> {
  const result = await client.callTool({ name: "readFile", arguments: { path: "big.txt", endLine: 1_000_000, maxBytes: READ_BYTES } });
  expect(result.isError ?? false).toBe(false);
  const content = result.content as { type: string; text?: string }[];
  return content[0]?.text?.length ?? 0;
}

it.skipIf(!CAN_READ_RSS)(
  `${READS} reads of 1 MiB leave the bridge's memory bounded`,
  async () => {
    expect(await readBig()).toBeGreaterThan(READ_BYTES); // warm-up: code paths compiled, buffers sized
    const pid = bridge.proc.pid ?? 0;
    const before = rssMiB(pid);
    for (let i = 0; i < READS; i++) await readBig();
    const after = rssMiB(pid);
    console.log(`RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MiB right after ${READS} reads`);
    // Freed memory returns to the system at the next full collection, which V8 runs on its own once
    // allocation stops; wait for that rather than for a fixed time.
    await expect.poll(() => rssMiB(pid) - before, { timeout: 30_000, interval: 500 }).toBeLessThan(RSS_GROWTH_BOUND_MIB);
    console.log(`RSS settled at ${rssMiB(pid).toFixed(1)} MiB`);
  },
  // 36 s quiet on three test workers.
  240_000,
);
