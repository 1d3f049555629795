// Many busy Streamable HTTP clients at the bridge's defaults (attack finding B): 20 official SDK
// clients, each calling a cheap tool every 200 ms for about 10 s, must all be served. A session
// in active use is never evicted to make room for another (the SDK client does not re-initialize
// after a 404, so an eviction would break it for good).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const CLIENTS = 20;
const CALLS_PER_CLIENT = 50;
const INTERVAL_MS = 200;

let bridge: BridgeProcess;
const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];

beforeAll(async () => {
  bridge = await startBridgeProcess();
});
afterAll(async () => {
  await Promise.all(clients.map(({ transport }) => transport.terminateSession().catch(() => undefined)));
  await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
  await bridge?.stop();
});

async function connect(i: number): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: `busy-${i}`, version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  await client.connect(transport);
  const entry = { client, transport };
  clients.push(entry);
  return entry;
}

/** Calls getWorkspaceFolders every INTERVAL_MS (workload pacing, not synchronisation). */
async function busy(client: Client, failures: string[]): Promise<void> {
  for (let call = 0; call < CALLS_PER_CLIENT; call++) {
    const started = Date.now();
    try {
      const result = await client.callTool({ name: "getWorkspaceFolders", arguments: {} });
      if (result.isError) failures.push(`isError: ${JSON.stringify(result.content)}`);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL_MS - (Date.now() - started))));
  }
}

it(`serves ${CLIENTS} busy SDK clients at once without a failed call`, async () => {
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      let client: Client;
      try {
        ({ client } = await connect(i));
      } catch (err) {
        // A client that cannot connect fails every call it would have made.
        const reason = `connect: ${err instanceof Error ? err.message : String(err)}`;
        for (let call = 0; call < CALLS_PER_CLIENT; call++) failures.push(reason);
        return;
      }
      await busy(client, failures);
    }),
  );
  const total = CLIENTS * CALLS_PER_CLIENT;
  const reasons = [...new Set(failures)].slice(0, 5).join("; ");
  console.log(`${failures.length} of ${total} calls failed${reasons ? `: ${reasons}` : ""}`);
  expect(failures, reasons).toEqual([]);
}, 120_000);
