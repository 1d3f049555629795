// WebSocket session churn against the real bridge (attack finding A): thousands of clients that
// connect with a fresh x-claude-code-session-id, initialize and drop must not pile up sessions in
// grace, grow the checkpoint file or the bridge's memory without bound, and a real client must
// still get in afterwards. Memory is what the bridge still holds after a full collection (read
// through its inspector), not its resident set, which also counts garbage V8 has not collected yet
// and so moves with the machine's load.
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { INSPECT_OPTION, inspectProcess, type InspectedProcess, type RetainedMemory } from "../helpers/inspector-memory.ts";
import { AUTH_HEADER, FrameLog, tryConnect, waitForClose } from "../helpers/ws-client.ts";

const CYCLES = 5_000;
const PARALLEL = 8;
/** Enough for the heap to reach its working size, so what follows measures what is kept. */
const WARM_UP_CYCLES = 2_000;
/** The default --max-ws-sessions. */
const CAP = 32;
/** One checkpointed session is ~250 bytes (id, version, client info, counters); 1 KiB is generous. */
const CHECKPOINT_BOUND_BYTES = CAP * 1024;
/**
 * What the bridge holds more after the churn: under 1 MiB (less, as often as not). Without a cap
 * this workload keeps 5,000 more sessions, which held 27 MiB more (checked by hand, the cap lifted).
 */
const RETAINED_GROWTH_BOUND_MIB = 10;

let bridge: BridgeProcess;
let inspected: InspectedProcess;

beforeAll(async () => {
  // Thousands of initializes in seconds would (rightly) meet the request budget shared by every
  // session of the token; this test is about the session cap, so that budget is lifted.
  bridge = await startBridgeProcess({
    args: ["--request-rate-limit", "100000"],
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${INSPECT_OPTION}`.trim() },
  });
  inspected = await inspectProcess(bridge.stderr());
});
afterAll(async () => {
  inspected?.close();
  await bridge?.stop();
});

const total = (m: RetainedMemory) => m.heapMiB + m.externalMiB;

async function health(): Promise<{ activeSessions: number; sessionsInGrace: number }> {
  const response = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
  return (await response.json()) as { activeSessions: number; sessionsInGrace: number };
}

async function open(): Promise<FrameLog> {
  const outcome = await tryConnect(bridge.wsUrl, { headers: { [AUTH_HEADER]: bridge.token, "x-claude-code-session-id": randomUUID() } });
  if (!outcome.ok) throw new Error(`upgrade refused: HTTP ${outcome.status} ${outcome.body}`);
  outcome.ws.on("error", () => undefined);
  return new FrameLog(outcome.ws);
}

/** One client's life: connect, initialize, drop (no "client done": its session goes into grace). */
async function cycle(): Promise<void> {
  const client = await open();
  await client.initialize();
  const closed = waitForClose(client.ws);
  client.ws.close();
  await closed;
}

async function churn(cycles: number): Promise<void> {
  let left = cycles;
  const worker = async () => {
    while (left-- > 0) await cycle();
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

it("bounds sessions, the checkpoint and memory under connect/initialize/drop churn", async () => {
  await churn(WARM_UP_CYCLES);
  const retainedBefore = await inspected.retained();
  await churn(CYCLES);
  // The last drops are seen by the bridge a moment after the client's close event.
  await expect.poll(async () => (await health()).activeSessions).toBe(0);
  const after = await health();
  const retainedAfter = await inspected.retained();
  const growth = total(retainedAfter) - total(retainedBefore);
  const checkpoint = join(bridge.configDir, "ide", `checkpoint-${bridge.port}.json`);
  const checkpointBytes = statSync(checkpoint).size;
  console.log(
    `after ${CYCLES} cycles: activeSessions ${after.activeSessions}, sessionsInGrace ${after.sessionsInGrace}, ` +
      `checkpoint ${checkpointBytes} bytes, retained heap and external ${total(retainedBefore).toFixed(1)} -> ${total(retainedAfter).toFixed(1)} MiB`,
  );

  expect(after.activeSessions + after.sessionsInGrace).toBeLessThanOrEqual(CAP);
  expect(checkpointBytes).toBeLessThanOrEqual(CHECKPOINT_BOUND_BYTES);
  expect(growth).toBeLessThan(RETAINED_GROWTH_BOUND_MIB);

  const fresh = await open();
  try {
    expect((await fresh.initialize()).error).toBeUndefined();
    const call = await fresh.request(2, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
    expect(call.error).toBeUndefined();
    expect((call.result as { isError?: boolean }).isError ?? false).toBe(false);
  } finally {
    fresh.ws.terminate();
  }
}, 180_000);
