// spawnWorkspace for real: an in-process bridge with a --spawn-root starts child bridges (the real
// bin/claude-ide-bridge.js) on folders under it. A client reaches a child over HTTP with the child's
// own token (the parent's is refused there) and calls a tool in the child's folder; the child ends
// on stopWorkspace, when the session that started it ends, and when the parent stops, leaving no
// process and no lock file. Folders outside the spawn roots are refused with what to do. With
// waitForExtensionMs the answer comes once a VS Code extension (a protocol-level stand-in that finds
// the child by its lock file, as the real one does) connected to the child, or says it did not.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { startBridge, type RunningBridge } from "../../../src/bridge.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { EXTENSION_AUTH_HEADER, EXTENSION_PATH } from "../../../src/extension/protocol.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { silentLogger } from "../../../src/log.ts";
import { extensionHello } from "../../helpers/extension-hello.ts";
import { BRIDGE_BIN, startBridgeProcess } from "../../helpers/spawn-bridge.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

/** Bounds the wait for a stopped child's exit (SIGTERM, then SIGKILL after 5 s). */
const EXIT_WAIT_MS = 30_000;

let temp: TempWorkspaces;
let bridge: RunningBridge;
let configDir: string;
let spawnRoot: string;
let outside: string;
const clients: { client: Client; transport: StreamableHTTPClientTransport }[] = [];
const childPids: number[] = [];

type CallResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
type Spawned = {
  folder: string;
  mcpUrl: string;
  addCommand: string;
  pid: number;
  endsWithThisSession: boolean;
  extensionConnected: boolean;
};

async function connect(mcpUrl: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "spawn-workspace", version: "1" });
  await client.connect(transport);
  clients.push({ client, transport });
  return { client, transport };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallResult;
}

async function spawn(client: Client, folder: string, extra: Record<string, unknown> = {}): Promise<Spawned & { token: string }> {
  const result = await call(client, "spawnWorkspace", { folder, ...extra });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const spawned = result.structuredContent as Spawned;
  childPids.push(spawned.pid);
  const token = /Bearer ([^"]+)"/.exec(spawned.addCommand)?.[1] ?? "";
  return { ...spawned, token };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function exitOf(pid: number): Promise<void> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`child bridge ${pid} still runs ${EXIT_WAIT_MS} ms after it was stopped`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const lockFiles = async () => (await readdir(join(configDir, "ide")).catch(() => [])).filter((f) => f.endsWith(".lock"));

/**
 * Plays the VS Code extension of a window opened on `folder`: waits (bounded) for a bridge's lock file
 * that serves it, then connects to that bridge's extension socket with the lock's token and says hello.
 */
async function extensionFor(folder: string): Promise<WebSocket> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  for (;;) {
    for (const name of await lockFiles()) {
      const lock = JSON.parse(await readFile(join(configDir, "ide", name), "utf8").catch(() => "{}")) as {
        workspaceFolders?: string[];
        authToken?: string;
      };
      if (!lock.workspaceFolders?.includes(folder) || lock.authToken === undefined) continue;
      const ws = new WebSocket(`ws://127.0.0.1:${name.replace(/\.lock$/, "")}${EXTENSION_PATH}`, {
        headers: { [EXTENSION_AUTH_HEADER]: lock.authToken },
      });
      await new Promise<void>((resolve, reject) => {
        ws.once("error", reject);
        ws.once("open", () => resolve());
      });
      ws.send(extensionHello([{ name: "tools", uri: toFileUri(folder), path: folder }]));
      return ws;
    }
    if (Date.now() > deadline) throw new Error(`no bridge lock file for ${folder} within ${EXIT_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  temp = await tempWorkspaces("cib-spawn-");
  const root = await temp.make("main", { "README.md": "# main\n" });
  spawnRoot = await temp.make("clones", {});
  await temp.make("clones/tools", { "README.md": "# tools repo\n", "package.json": '{ "name": "tools" }\n' });
  await temp.make("clones/docs", { "README.md": "# docs repo\n" });
  await temp.make("clones/site", { "README.md": "# site repo\n" });
  outside = await temp.make("private", { "secret.txt": "no\n" });
  configDir = await temp.make("config", {});
  const runtime = createNodeRuntime();
  bridge = await startBridge(
    { ...runtime, env: { ...runtime.env, CLAUDE_CONFIG_DIR: configDir, CLAUDE_IDE_BRIDGE_TOKEN: "parent-token-never-shared" } },
    { ...DEFAULT_CONFIG, workspace: root, spawnRoots: [spawnRoot], fixedToken: "parent-token-never-shared" },
    { logger: silentLogger, bridgeCommand: { command: process.execPath, args: [BRIDGE_BIN] } },
  );
}, 60_000);

afterAll(async () => {
  for (const { client } of clients) await client.close().catch(() => {});
  await bridge?.stop();
  for (const pid of childPids) if (alive(pid)) process.kill(-pid, "SIGKILL");
  await temp?.remove();
});

it("starts a child bridge another client reaches with its own token, and stops it on stopWorkspace", async () => {
  const { client } = await connect(`${bridge.url}/mcp`, bridge.token);
  // The answer waits for the extension of a window opened on the folder once the child is up.
  const [child, extension] = await Promise.all([
    spawn(client, join(spawnRoot, "tools"), { waitForExtensionMs: 60_000 }),
    extensionFor(join(spawnRoot, "tools")),
  ]);
  expect(child.extensionConnected).toBe(true);
  extension.close();
  expect(child.folder).toBe(join(spawnRoot, "tools"));
  expect(child.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(child.token).not.toBe(bridge.token);
  expect(child.endsWithThisSession).toBe(true);
  expect(child.addCommand).toContain(`claude mcp add --transport http bridge-tools ${child.mcpUrl}`);
  expect(await lockFiles()).toHaveLength(2);

  // The parent's token opens nothing there.
  const refused = await fetch(child.mcpUrl, {
    method: "POST",
    headers: { Authorization: `Bearer ${bridge.token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
  });
  expect(refused.status).toBe(401);

  const { client: inChild } = await connect(child.mcpUrl, child.token);
  const readme = await call(inChild, "readFile", { path: "README.md" });
  expect(readme.content[0]?.text).toContain("# tools repo");
  const outsideChild = await call(inChild, "readFile", { path: join(outside, "secret.txt") });
  expect(outsideChild.isError).toBe(true);

  // The same folder again is the same child.
  expect((await spawn(client, join(spawnRoot, "tools"))).pid).toBe(child.pid);

  const stopped = await call(client, "stopWorkspace", { folder: child.folder });
  expect(stopped.structuredContent).toEqual({ stopped: child.folder, running: [] });
  expect(alive(child.pid)).toBe(false);
  expect(await lockFiles()).toHaveLength(1);
});

it("refuses folders outside the spawn roots, saying how to allow one", async () => {
  const { client } = await connect(`${bridge.url}/mcp`, bridge.token);
  for (const folder of [outside, spawnRoot, join(spawnRoot, "tools/../../private")]) {
    const refused = await call(client, "spawnWorkspace", { folder });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("--spawn-root");
  }
});

it("stops a child when the session that started it ends, and every child when the bridge stops", async () => {
  const ending = await connect(`${bridge.url}/mcp`, bridge.token);
  const staying = await connect(`${bridge.url}/mcp`, bridge.token);
  const [ofEnding, ofStaying] = await Promise.all([
    spawn(ending.client, join(spawnRoot, "docs"), { waitForExtensionMs: 1_000 }),
    spawn(staying.client, join(spawnRoot, "site")),
  ]);
  expect(alive(ofEnding.pid) && alive(ofStaying.pid)).toBe(true);
  // No window opened on docs: the bounded wait ends and says so, and the child serves all the same.
  expect([ofEnding.extensionConnected, ofStaying.extensionConnected]).toEqual([false, false]);

  await ending.transport.terminateSession();
  await exitOf(ofEnding.pid);
  expect(alive(ofStaying.pid)).toBe(true);

  await bridge.stop();
  await exitOf(ofStaying.pid);
  expect(await lockFiles(), `parent ${bridge.port}, children ${ofEnding.mcpUrl} ${ofStaying.mcpUrl}`).toEqual([]);
});

it("stops its children when the bridge process is signalled (the CLI's own shutdown), leaving no lock file", async () => {
  const parent = await startBridgeProcess({
    workspace: spawnRoot,
    args: ["--spawn-root", spawnRoot],
    env: { CLAUDE_CONFIG_DIR: configDir },
  });
  try {
    const before = await lockFiles();
    const { client } = await connect(parent.mcpUrl, parent.token);
    const child = await spawn(client, join(spawnRoot, "docs"));
    expect(await lockFiles()).toHaveLength(before.length + 1);
    await parent.stop("SIGTERM");
    await exitOf(child.pid);
    expect(await lockFiles(), `parent ${parent.port} child ${child.mcpUrl} before ${before}`).toEqual(
      before.filter((f) => f !== `${parent.port}.lock`),
    );
  } finally {
    await parent.stop();
  }
});
