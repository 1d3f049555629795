// Two VS Code windows, two bridges: each window's extension finds its own bridge among the lock
// files (extension/src/discovery.ts, the code the extension runs), a multi-root window the bridge
// of one of its roots, and each bridge serves its window's folders (every root) without taking
// the other's extension. Two real bridge processes; the extensions are WebSocket clients speaking
// the extension protocol (a real VS Code per window is more than CI can afford; the real one is
// driven in vscode-ide.test.ts and its cases in vscode-cases/).
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { EXTENSION_AUTH_HEADER, EXTENSION_PATH } from "../../src/extension/protocol.ts";
import { extensionHello } from "../helpers/extension-hello.ts";
import { toFileUri } from "../../src/lib/paths/file-uri.ts";
import { type BridgeProcess, makeWorkspace, REPO_ROOT, startBridgeProcess } from "../helpers/spawn-bridge.ts";

// The extension's own discovery, loaded at run time: extension/ is a CommonJS package of its own,
// outside the bridge's type check.
type FindBridge = (opts: {
  lockDir: string;
  windowFolders: readonly string[];
}) => Promise<{ port: number; token: string; workspace: string } | undefined>;
let findBridge: FindBridge;

let work: string;
let configDir: string;
let a: BridgeProcess;
let b: BridgeProcess;
let extra: string;
const sockets: WebSocket[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  ({ findBridge } = (await import(join(REPO_ROOT, "extension", "src", "discovery.ts"))) as { findBridge: FindBridge });
  work = await realpath(await mkdtemp(join(tmpdir(), "two-windows-")));
  configDir = join(work, "config");
  await mkdir(configDir);
  extra = join(work, "docs");
  await mkdir(extra);
  // One Claude config directory, as on a user's machine: both locks side by side.
  [a, b] = await Promise.all([
    startBridgeProcess({ configDir, workspace: await makeWorkspace() }),
    startBridgeProcess({ configDir, workspace: await makeWorkspace() }),
  ]);
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const c of clients) await c.close().catch(() => undefined);
  await Promise.all([a?.stop(), b?.stop()]);
  await rm(work, { recursive: true, force: true });
  for (const w of [a?.workspace, b?.workspace]) if (w !== undefined) await rm(w, { recursive: true, force: true });
}, 60_000);

const folder = (path: string) => ({ name: path.split("/").at(-1) ?? path, uri: toFileUri(path), path });

it("each window's extension finds its own bridge; each bridge lists its window's roots and keeps its own extension", async () => {
  const lockDir = join(configDir, "ide");
  // Window A: its workspace alone. Window B: multi-root, an unrelated folder first, then B's workspace.
  const windowA = [a.workspace];
  const windowB = [extra, b.workspace];
  const forA = await findBridge({ lockDir, windowFolders: windowA });
  const forB = await findBridge({ lockDir, windowFolders: windowB });
  expect(forA).toMatchObject({ port: a.port, token: a.token, workspace: a.workspace });
  expect(forB).toMatchObject({ port: b.port, token: b.token, workspace: b.workspace });
  // A window over neither workspace finds none (it does not take another window's bridge).
  expect(await findBridge({ lockDir, windowFolders: [extra] })).toBeUndefined();

  const closedA = await connect(forA?.port ?? 0, forA?.token ?? "", windowA.map(folder));
  const closedB = await connect(forB?.port ?? 0, forB?.token ?? "", windowB.map(folder));

  const foldersOf = async (bridge: BridgeProcess) => {
    const client = new Client({ name: "two-windows", version: "0.0.0" });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
    );
    const result = await client.callTool({ name: "getWorkspaceFolders", arguments: {} });
    expect(result._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    return (result.content as { text: string }[]).map((c) => c.text).join("\n");
  };
  const listedA = await foldersOf(a);
  const listedB = await foldersOf(b);
  expect(listedA).toContain(a.workspace);
  expect(listedA).not.toContain(b.workspace);
  // Every root of the multi-root window.
  expect(listedB).toContain(extra);
  expect(listedB).toContain(b.workspace);
  expect(listedB).not.toContain(a.workspace);
  // Neither extension was superseded by the other window's.
  expect(closedA()).toBeUndefined();
  expect(closedB()).toBeUndefined();
}, 60_000);

/** An extension's connection: hello with the window's folders; answers getWorkspaceFolders with them. */
async function connect(port: number, token: string, folders: ReturnType<typeof folder>[]): Promise<() => number | undefined> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${EXTENSION_PATH}`, { headers: { [EXTENSION_AUTH_HEADER]: token } });
  sockets.push(ws);
  let closed: number | undefined;
  ws.on("close", (code) => (closed = code));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const hello = new Promise<void>((resolve, reject) => {
    ws.on("message", (data) => {
      const m = JSON.parse(data.toString()) as { id?: number | string; method?: string; error?: unknown };
      if (m.id === "hello") return m.error === undefined ? resolve() : reject(new Error(data.toString()));
      if (typeof m.id !== "number") return;
      if (m.method === "extension/getWorkspaceFolders") ws.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { folders } }));
      else ws.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: `not in this test: ${m.method}` } }));
    });
  });
  ws.send(extensionHello(folders));
  await hello;
  return () => closed;
}
