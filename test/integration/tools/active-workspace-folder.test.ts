// setActiveWorkspaceFolder on a real bridge with two workspace folders (--workspace-folder), each a
// git repository: after one session picks the second folder, its relative reads, its searches'
// default root and getGitStatus's repository are the second folder's, while another session still
// works in the root; the jail stays the same (absolute paths into the root still read, a folder the
// bridge was not given is refused with what to do). Folders the client names as MCP roots, and those
// the VS Code extension reports, become folders that client's session may pick (the bridge is not
// remote here, so an HTTP client with the bridge token is the local user's), never a folder holding
// the home directory, and never for another session; a root the client drops is no longer worked in.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { startBridge, type RunningBridge } from "../../../src/bridge.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { EXTENSION_AUTH_HEADER, EXTENSION_PATH } from "../../../src/extension/protocol.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { silentLogger } from "../../../src/log.ts";
import { gitFixture } from "../../helpers/git-fixture.ts";
import { extensionHello } from "../../helpers/extension-hello.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

/** Bounds the wait for the bridge to take a client's roots: it asks, the client answers, the folders are checked. */
const ROOTS_WAIT_MS = 20_000;

let temp: TempWorkspaces;
let bridge: RunningBridge;
let api: string;
let web: string;
let outside: string;
let home: string;
let shelf: string;
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${bridge.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  const client = new Client({ name: "active-folder", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type CallResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

const textOf = (result: CallResult) => result.content.map((c) => c.text ?? "").join("\n");

beforeAll(async () => {
  temp = await tempWorkspaces("cib-active-");
  const base = await temp.make("base", {});
  const git = await gitFixture(base);
  api = await git.repo(join(base, "api"), { "README.md": "# api service\n", "src/server.ts": "export const port = 1;\n" });
  web = await git.repo(join(base, "web"), { "README.md": "# web client\n", "src/app.ts": "export const marker = 'only-in-web';\n" });
  outside = await temp.make("elsewhere", { "notes.txt": "not in the workspace\n" });
  shelf = await temp.make("shelf", { "book.txt": "on the shelf\n" });
  home = await temp.make("users/me", { ".ssh/id_ed25519": "private key\n" });
  await writeFile(join(web, "draft.txt"), "untracked in web\n");
  const configDir = await temp.make("config", {});
  const runtime = createNodeRuntime();
  bridge = await startBridge(
    { ...runtime, env: { ...git.env, CLAUDE_CONFIG_DIR: configDir }, paths: { ...runtime.paths, home } },
    { ...DEFAULT_CONFIG, workspace: api, workspaceFolders: [web], toolRateLimit: 10_000, requestRateLimit: 10_000 },
    { logger: silentLogger },
  );
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await bridge?.stop();
  await temp?.remove();
});

it("moves one session's relative paths, searches and git repository to the chosen folder, and no other session's", async () => {
  const inWeb = await connect();
  const inApi = await connect();

  const chosen = await call(inWeb, "setActiveWorkspaceFolder", { folder: "web" });
  expect(chosen.isError).toBeFalsy();
  expect(chosen.structuredContent).toEqual({ activeFolder: web, from: "workspace", previous: api, folders: [web, api] });

  expect(textOf(await call(inWeb, "readFile", { path: "README.md" }))).toContain("# web client");
  expect(textOf(await call(inApi, "readFile", { path: "README.md" }))).toContain("# api service");

  const found = textOf(await call(inWeb, "findFiles", { pattern: "*.ts" }));
  expect(found.split("\n")).toEqual(["src/app.ts"]);
  expect(textOf(await call(inWeb, "searchWorkspace", { pattern: "only-in-web" }))).toContain("src/app.ts");
  expect(textOf(await call(inApi, "searchWorkspace", { pattern: "only-in-web" }))).not.toContain("app.ts");

  const webStatus = JSON.stringify((await call(inWeb, "getGitStatus", {})).structuredContent);
  expect(webStatus).toContain("draft.txt");
  const apiStatus = await call(inApi, "getGitStatus", {});
  expect(apiStatus.isError).toBeFalsy();
  expect(JSON.stringify(apiStatus.structuredContent)).not.toContain("draft.txt");

  // The jail is the same: the root's files are still there by absolute path, and nothing more is.
  expect(textOf(await call(inWeb, "readFile", { path: join(api, "src/server.ts") }))).toContain("port = 1");
  const escaped = await call(inWeb, "readFile", { path: "../elsewhere/notes.txt" });
  expect(escaped.isError).toBe(true);
  expect(textOf(escaped)).toMatch(/outside the workspace/);

  // Back to the root by its path.
  expect((await call(inWeb, "setActiveWorkspaceFolder", { folder: api })).structuredContent).toMatchObject({
    activeFolder: api,
    previous: web,
  });
  expect(textOf(await call(inWeb, "readFile", { path: "README.md" }))).toContain("# api service");
});

it("refuses a folder that is not one of the workspace's, saying which ones there are", async () => {
  const client = await connect();
  const notAFolder = await call(client, "setActiveWorkspaceFolder", { folder: "src" });
  expect(notAFolder.isError).toBe(true);
  expect(textOf(notAFolder)).toContain("is not one of its folders");
  expect(textOf(notAFolder)).toContain(`Pick one of ${api}, ${web}`);

  const beyond = await call(client, "setActiveWorkspaceFolder", { folder: outside });
  expect(beyond.isError).toBe(true);
  expect(textOf(beyond)).toContain("--workspace-folder");
  // Nothing changed for this session.
  expect(textOf(await call(client, "readFile", { path: "README.md" }))).toContain("# api service");
});

/** A client that offers MCP roots, as Claude Code does (its directory and --add-dir), and can change them. */
async function connectWithRoots(initial: string[], to: RunningBridge = bridge) {
  let roots = initial;
  let asked = 0;
  const transport = new StreamableHTTPClientTransport(new URL(`${to.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${to.token}` } },
  });
  const client = new Client({ name: "rooted", version: "1" }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked += 1;
    return { roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path.split("/").pop() })) };
  });
  await client.connect(transport);
  clients.push(client);
  return {
    client,
    asked: () => asked,
    async change(next: string[]) {
      roots = next;
      await client.sendRootsListChanged();
    },
  };
}

/** Calls until `done` holds for the answer (the bridge takes roots and extension folders asynchronously). */
async function callUntil(
  client: Client,
  args: Record<string, unknown>,
  done: (r: CallResult) => boolean,
  waitMs = ROOTS_WAIT_MS,
): Promise<CallResult> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await call(client, args.tool as string, args.input as Record<string, unknown>);
    if (done(result) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("lets a client pick the folders it names as MCP roots, for its own session only, never one holding the home directory", async () => {
  const rooted = await connectWithRoots([outside, join(home, ".."), home, "/"]);
  const chosen = await callUntil(rooted.client, { tool: "setActiveWorkspaceFolder", input: { folder: outside } }, (r) => !r.isError);
  expect(rooted.asked()).toBeGreaterThanOrEqual(1);
  expect(chosen.isError, textOf(chosen)).toBeFalsy();
  // The home directory, its parent and "/" were offered too, and none of them is a folder to pick.
  expect(chosen.structuredContent).toEqual({ activeFolder: outside, from: "client", previous: api, folders: [outside, api, web] });
  expect(textOf(await call(rooted.client, "readFile", { path: "notes.txt" }))).toContain("not in the workspace");
  expect(textOf(await call(rooted.client, "findFiles", { pattern: "*.txt" })).split("\n")).toEqual(["notes.txt"]);
  for (const folder of [home, join(home, ".."), "/"]) {
    const refused = await call(rooted.client, "setActiveWorkspaceFolder", { folder });
    expect(refused.isError, folder).toBe(true);
  }
  expect((await call(rooted.client, "readFile", { path: join(home, ".ssh/id_ed25519") })).isError).toBe(true);

  // Another session was offered nothing: the folder stays outside for it.
  const other = await connect();
  expect((await call(other, "setActiveWorkspaceFolder", { folder: outside })).isError).toBe(true);
  expect((await call(other, "readFile", { path: join(outside, "notes.txt") })).isError).toBe(true);

  // The client drops the root: its session is back at the workspace root, and the folder is outside again.
  await rooted.change([shelf]);
  const back = await callUntil(rooted.client, { tool: "readFile", input: { path: "README.md" } }, (r) => textOf(r).includes("# api"));
  expect(textOf(back)).toContain("# api service");
  expect((await call(rooted.client, "readFile", { path: join(outside, "notes.txt") })).isError).toBe(true);
  const onShelf = await callUntil(rooted.client, { tool: "setActiveWorkspaceFolder", input: { folder: "shelf" } }, (r) => !r.isError);
  expect(onShelf.structuredContent).toMatchObject({ activeFolder: shelf, from: "client" });
  expect(textOf(await call(rooted.client, "readFile", { path: "book.txt" }))).toContain("on the shelf");
});

it("lets a local session pick a folder of the VS Code window the extension reports, while the window has it", async () => {
  const ws = new WebSocket(`${bridge.url.replace(/^http/, "ws")}${EXTENSION_PATH}`, { headers: { [EXTENSION_AUTH_HEADER]: bridge.token } });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("error", reject);
      ws.once("open", () => resolve());
    });
    const hello = new Promise<void>((resolve, reject) => {
      ws.once("message", (data) => (JSON.parse(data.toString()).error === undefined ? resolve() : reject(new Error(data.toString()))));
    });
    ws.send(
      extensionHello([
        { name: "shelf", uri: toFileUri(shelf), path: shelf },
        { name: "me", uri: toFileUri(home), path: home },
      ]),
    );
    await hello;
    const client = await connect();
    const chosen = await call(client, "setActiveWorkspaceFolder", { folder: "shelf" });
    expect(chosen.isError, textOf(chosen)).toBeFalsy();
    expect(chosen.structuredContent).toEqual({ activeFolder: shelf, from: "extension", previous: api, folders: [shelf, api, web] });
    expect(textOf(await call(client, "readFile", { path: "book.txt" }))).toContain("on the shelf");
    // The window's home folder is not one to pick either.
    expect((await call(client, "setActiveWorkspaceFolder", { folder: home })).isError).toBe(true);
    // The window closes: its folder is no longer worked in, and the session is back at the root.
    ws.close();
    const back = await callUntil(client, { tool: "readFile", input: { path: "README.md" } }, (r) => textOf(r).includes("# api"));
    expect(textOf(back)).toContain("# api service");
    expect((await call(client, "readFile", { path: join(shelf, "book.txt") })).isError).toBe(true);
  } finally {
    ws.close();
  }
});

it("takes no roots from an HTTP session while remote access is on: it may be a client on another machine", async () => {
  const runtime = createNodeRuntime();
  const remote = await startBridge(
    { ...runtime, env: { ...runtime.env, CLAUDE_CONFIG_DIR: await temp.make("config-remote", {}) }, paths: { ...runtime.paths, home } },
    {
      ...DEFAULT_CONFIG,
      workspace: api,
      workspaceFolders: [web],
      remote: { ...DEFAULT_CONFIG.remote, issuerUrl: "https://bridge.example.test" },
      toolRateLimit: 10_000,
      requestRateLimit: 10_000,
    },
    { logger: silentLogger },
  );
  try {
    const rooted = await connectWithRoots([outside], remote);
    // The same wait the local client's roots are taken within: here they never are, nor asked for.
    const refused = await callUntil(
      rooted.client,
      { tool: "setActiveWorkspaceFolder", input: { folder: outside } },
      (r) => !r.isError,
      2_000,
    );
    expect(refused.isError).toBe(true);
    expect(rooted.asked()).toBe(0);
    expect((await call(rooted.client, "setActiveWorkspaceFolder", { folder: "web" })).isError).toBeFalsy();
  } finally {
    await remote.stop();
  }
});
