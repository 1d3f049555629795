// One findFiles call used to freeze the whole bridge: the 61-char glob below
// became a regular expression that backtracks exponentially, so every session, /ping and SIGTERM
// stopped answering. Now glob matching is linear (src/glob), walks yield to the event loop, and the
// hostile call costs about what a plain one does, measured in the same run.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RawMcpSession, rawRequest } from "../helpers/raw-http.ts";
import { foundFiles } from "../../src/prompts/tool-lines.ts";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const HOSTILE = `${"{*,*}".repeat(12)}Z`;
let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess({ args: ["--tool-rate-limit", "1000"] });
  for (let d = 0; d < 30; d++) {
    await mkdir(join(bridge.workspace, "pkg", `dir${d}`), { recursive: true });
    await Promise.all(Array.from({ length: 50 }, (_, f) => writeFile(join(bridge.workspace, "pkg", `dir${d}`, `file-number-${f}.ts`), "")));
  }
});

afterAll(async () => {
  await bridge?.stop();
});

async function findFiles(session: RawMcpSession, pattern: string): Promise<{ ms: number; files: number }> {
  const started = performance.now();
  const answer = await session.request("tools/call", { name: "findFiles", arguments: { pattern, maxResults: 10_000 } }, {});
  const result = answer.messages.at(-1)?.result as { content?: { type: string; text?: string }[]; isError?: boolean } | undefined;
  const text = result?.content?.[0]?.text;
  if (text === undefined || result?.isError) throw new Error(`findFiles ${pattern}: ${answer.body.slice(0, 300)}`);
  return { ms: performance.now() - started, files: foundFiles(text).files.length };
}

it("answers the hostile glob about as fast as a plain one, while other sessions keep being served", async () => {
  const attacker = new RawMcpSession(bridge.mcpUrl, bridge.token);
  const bystander = new RawMcpSession(bridge.mcpUrl, bridge.token);
  await attacker.initialize();
  await bystander.initialize();
  const plain = await findFiles(attacker, "*.ts");
  // The fixture workspace brings one .ts file of its own (src/index.ts).
  expect(plain.files).toBe(1501);
  const hostileCall = findFiles(attacker, HOSTILE);
  // While it runs: the other session and /ping answer.
  const pings = await Promise.all(Array.from({ length: 10 }, () => rawRequest(`${bridge.url}/ping`)));
  expect(pings.every((p) => p.status === 200)).toBe(true);
  expect((await bystander.request("tools/call", { name: "getWorkspaceFolders", arguments: {} })).body).toContain(bridge.workspace);
  const hostile = await hostileCall;
  expect(hostile.files).toBe(0);
  console.log(
    `findFiles over 1,500 files: plain glob ${plain.ms.toFixed(0)} ms, hostile glob ${hostile.ms.toFixed(0)} ms (${(hostile.ms / plain.ms).toFixed(2)}x)`,
  );
  expect(hostile.ms / plain.ms).toBeLessThan(20);
  await attacker.close();
  await bystander.close();
});

it("still stops cleanly on SIGTERM in the middle of a hostile call, removing its lock", async () => {
  const lock = join(bridge.configDir, "ide", `${bridge.port}.lock`);
  expect(existsSync(lock)).toBe(true);
  const session = new RawMcpSession(bridge.mcpUrl, bridge.token);
  await session.initialize();
  const pending = findFiles(session, HOSTILE).catch(() => undefined);
  bridge.proc.kill("SIGTERM");
  const exit = await bridge.exited;
  await pending;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(existsSync(lock)).toBe(false);
});
