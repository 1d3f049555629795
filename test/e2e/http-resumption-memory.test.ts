// Large responses over Streamable HTTP (attack finding C): every streamed response is kept so a
// client that lost its connection can replay it with Last-Event-ID, but a response delivered to a
// connected client is not worth keeping, and what is kept is bounded in bytes per session. So 30
// reads of a 4 MB file on one session must not leave the bridge hundreds of MB larger.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { CAN_READ_RSS, rssMiB } from "../helpers/process-memory.ts";

const FILE_BYTES = 4_000_000;
const READS = 30;
/** Each response is ~8 MB of JSON (the text and its structured copy); keeping 30 is ~250 MB. */
const RSS_GROWTH_BOUND_MIB = 100;

let bridge: BridgeProcess;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  // The largest result size, so a 4 MB read comes back whole.
  bridge = await startBridgeProcess({ args: ["--max-result-size", "4096"] });
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

async function readBig(): Promise<number> {
  const result = await client.callTool({ name: "readFile", arguments: { path: "big.txt", maxBytes: 4 * 1024 * 1024 } });
  expect(result.isError ?? false).toBe(false);
  return ((result.structuredContent as { content?: string } | undefined)?.content ?? "").length;
}

it.skipIf(!CAN_READ_RSS)(`${READS} reads of a 4 MB file leave the bridge's memory bounded`, async () => {
  expect(await readBig()).toBe(FILE_BYTES); // warm-up: code paths compiled, buffers sized
  const pid = bridge.proc.pid ?? 0;
  const before = rssMiB(pid);
  for (let i = 0; i < READS; i++) await readBig();
  const after = rssMiB(pid);
  console.log(`RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MiB right after ${READS} reads`);
  // Freed memory returns to the system at the next full collection, which V8 runs on its own once
  // allocation stops; wait for that rather than for a fixed time.
  await expect
    .poll(() => rssMiB(pid) - before, { timeout: 30_000, interval: 500 })
    .toBeLessThan(RSS_GROWTH_BOUND_MIB);
  console.log(`RSS settled at ${rssMiB(pid).toFixed(1)} MiB`);
}, 120_000);
