// Large responses over Streamable HTTP (attack finding C): every streamed response is kept so a
// client that lost its connection can replay it with Last-Event-ID, but a response delivered to a
// connected client is not worth keeping, and what is kept is bounded in bytes per session. So 120
// reads of 1 MiB (readFile's largest) on one session must not leave the bridge holding them.
// Measured as what the bridge still holds after a full collection (its inspector), not its resident
// set, which also counts garbage V8 has not yet collected and moves with the machine's load.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { INSPECT_OPTION, inspectProcess, type InspectedProcess, type RetainedMemory } from "../helpers/inspector-memory.ts";

const FILE_BYTES = 4_000_000;
/** readFile's largest maxBytes. */
const READ_BYTES = 1024 * 1024;
const READS = 120;
/**
 * A session keeps at most 4 Mi characters for replay (src/transports/http/http-session.ts; its unit
 * tests prove that bound); this is the whole-process check that nothing else holds on to responses.
 * The bridge holds under 1 MiB more after these reads; with a channel's events kept after delivery
 * (and the session's bound lifted) it held 56 MiB more.
 */
const RETAINED_GROWTH_BOUND_MIB = 12;
/** 12 s on a quiet machine. */
const READS_TIMEOUT_MS = 240_000;

let bridge: BridgeProcess;
let client: Client;
let transport: StreamableHTTPClientTransport;
let inspected: InspectedProcess;

beforeAll(async () => {
  // The largest result size, so a 1 MiB read comes back whole.
  bridge = await startBridgeProcess({
    args: ["--max-result-size", "4096", "--tool-rate-limit", "10000"],
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${INSPECT_OPTION}`.trim() },
  });
  inspected = await inspectProcess(bridge.stderr());
  const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
  await writeFile(join(bridge.workspace, "big.txt"), line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES));
  client = new Client({ name: "big-reads", version: "0.0.0" });
  transport = new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  await client.connect(transport);
});
afterAll(async () => {
  inspected?.close();
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

const total = (m: RetainedMemory) => m.heapMiB + m.externalMiB;
const shown = (m: RetainedMemory) => `${m.heapMiB.toFixed(1)} MiB heap + ${m.externalMiB.toFixed(1)} MiB external`;

it(
  `${READS} reads of 1 MiB leave the bridge's memory bounded`,
  async () => {
    expect(await readBig()).toBeGreaterThan(READ_BYTES); // warm-up: code paths compiled, buffers sized
    const before = await inspected.retained();
    for (let i = 0; i < READS; i++) await readBig();
    const after = await inspected.retained();
    console.log(`retained after a full collection: ${shown(before)} -> ${shown(after)} after ${READS} reads`);
    expect(total(after) - total(before)).toBeLessThan(RETAINED_GROWTH_BOUND_MIB);
  },
  READS_TIMEOUT_MS,
);
