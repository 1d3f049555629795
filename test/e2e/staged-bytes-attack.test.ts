// The staged-edits attack against a real bridge with a small heap: 6 sessions, each opening 4
// transactions and staging 8 files of 3.9 MB, all at once (about 750 MB of staged text had it all
// been kept). The bridge runs with a 256 MB heap; before the caps it died (out of memory) and took
// every session with it. Now every stage past a cap is refused with limit_reached, the bridge keeps
// serving, and what was staged before the refusals commits whole.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { toolErrorCode } from "../helpers/tool-error.ts";
import { authedWebSocketClass } from "../helpers/ws-client.ts";

const SESSIONS = 6;
const TRANSACTIONS = 4;
const STAGES = 8;
const STAGE_CHARS = 3_900_000;
const HEAP_MB = 256;

let bridge: BridgeProcess;
const clients: Client[] = [];
// Node 20 has no global WebSocket; the SDK's transport looks for one.
const savedWebSocket: unknown = Reflect.get(globalThis, "WebSocket");

beforeAll(async () => {
  bridge = await startBridgeProcess({
    args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"],
    env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
  });
  Reflect.set(globalThis, "WebSocket", authedWebSocketClass(bridge.token));
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  Reflect.set(globalThis, "WebSocket", savedWebSocket);
  await bridge?.stop();
});

/** One session over the IDE WebSocket, as Claude Code connects (its frames carry up to 4 MB). */
async function connect(name: string): Promise<Client> {
  const client = new Client({ name, version: "0.0.0" });
  await client.connect(new WebSocketClientTransport(new URL(bridge.wsUrl)));
  clients.push(client);
  return client;
}

interface Outcome {
  staged: { tx: string; file: string; fill: string }[];
  refused: string[];
  other: string[];
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { text?: string }[])[0]?.text ?? "";

async function attack(client: Client, session: number): Promise<Outcome> {
  const outcome: Outcome = { staged: [], refused: [], other: [] };
  for (let t = 0; t < TRANSACTIONS; t++) {
    const begun = await client.callTool({ name: "beginTransaction", arguments: {} });
    const tx = (begun.structuredContent as { transactionId: string }).transactionId;
    for (let s = 0; s < STAGES; s++) {
      const file = `s${session}-t${t}-f${s}.txt`;
      // Each file's own letter, so a commit that mixed up texts would show.
      const fill = String.fromCharCode(97 + ((session * 7 + t * 3 + s) % 26));
      const result = await client.callTool({
        name: "stageEdit",
        arguments: { transactionId: tx, filePath: file, content: fill.repeat(STAGE_CHARS) },
      });
      const text = textOf(result);
      if (result.isError !== true) outcome.staged.push({ tx, file, fill });
      else if (toolErrorCode(result) === "limit_reached") outcome.refused.push(text);
      else outcome.other.push(text);
      // Past a refusal the rest of this transaction's stages would be refused the same way (each
      // costs a second on the WebSocket): the attack goes on with the next transaction.
      if (result.isError === true) break;
    }
  }
  return outcome;
}

it(`${SESSIONS} sessions x ${TRANSACTIONS} transactions x ${STAGES} stages of 3.9 MB: refused past the caps on a ${HEAP_MB} MB heap, nothing lost`, async () => {
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => connect(`attacker-${i}`)));
  const outcomes = await Promise.all(sessions.map((client, i) => attack(client, i))).catch((err: unknown) => {
    throw new Error(`${String(err)}; the bridge: ${JSON.stringify(bridge.proc.exitCode)} ${bridge.stderr().slice(-3000)}`);
  });

  const staged = outcomes.reduce((n, o) => n + o.staged.length, 0);
  const refused = outcomes.reduce((n, o) => n + o.refused.length, 0);
  console.log(`${staged} stages kept, ${refused} refused`);
  expect(bridge.proc.exitCode, bridge.stderr().slice(-2000)).toBeNull();
  expect(outcomes.flatMap((o) => o.other)).toEqual([]);
  // Every session staged something and every session was refused past a cap, with the cap named.
  for (const o of outcomes) {
    expect(o.staged.length).toBeGreaterThan(0);
    expect(o.refused.length).toBeGreaterThan(0);
    for (const text of o.refused) expect(text).toMatch(/--max-session-staged-mb|--max-staged-mb/);
  }
  // 32 MB a session, 96 MB in all: at most 25 stages of 3.9 MB were kept.
  expect(staged).toBeLessThanOrEqual(Math.floor((96 * 1024 * 1024) / STAGE_CHARS));

  // Nothing lost: each session commits what it staged, every file whole with its own text.
  for (const [i, client] of sessions.entries()) {
    const txs = [...new Set(outcomes[i]?.staged.map((s) => s.tx))];
    for (const tx of txs) {
      const result = await client.callTool({ name: "commitTransaction", arguments: { transactionId: tx } });
      expect(result.isError ?? false, textOf(result)).toBe(false);
    }
  }
  for (const { file, fill } of outcomes.flatMap((o) => o.staged)) {
    const text = await readFile(join(bridge.workspace, file), "utf8");
    expect(text.length).toBe(STAGE_CHARS);
    expect(text.startsWith(fill) && text.endsWith(fill)).toBe(true);
  }
  // And the room is back: a session stages again after the commits.
  const first = sessions[0] as Client;
  const again = await first.callTool({ name: "beginTransaction", arguments: {} });
  const tx = (again.structuredContent as { transactionId: string }).transactionId;
  const result = await first.callTool({
    name: "stageEdit",
    arguments: { transactionId: tx, filePath: "again.txt", content: "z".repeat(STAGE_CHARS) },
  });
  expect(result.isError ?? false).toBe(false);
}, 300_000);
