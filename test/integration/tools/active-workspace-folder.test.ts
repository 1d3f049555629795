// setActiveWorkspaceFolder on a real bridge with two workspace folders (--workspace-folder), each a
// git repository: after one session picks the second folder, its relative reads, its searches'
// default root and getGitStatus's repository are the second folder's, while another session still
// works in the root; the jail stays the same (absolute paths into the root still read, a folder the
// bridge was not given is refused with what to do).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { startBridge, type RunningBridge } from "../../../src/bridge.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { silentLogger } from "../../../src/log.ts";
import { gitFixture } from "../../helpers/git-fixture.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

let temp: TempWorkspaces;
let bridge: RunningBridge;
let api: string;
let web: string;
let outside: string;
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
  await writeFile(join(web, "draft.txt"), "untracked in web\n");
  const configDir = await temp.make("config", {});
  const runtime = createNodeRuntime();
  bridge = await startBridge(
    { ...runtime, env: { ...git.env, CLAUDE_CONFIG_DIR: configDir } },
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
  expect(chosen.structuredContent).toEqual({ activeFolder: web, previous: api, folders: [web, api] });

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
