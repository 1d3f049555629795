// The built bridge lists its tools at once and imports a toolset's modules on its first call: calls
// that reach it before their toolsets are loaded are answered, not lost, and /health says what is
// loaded. A copy of the package whose git toolset module is missing answers git's tools with a
// clear isError and keeps serving the others.
import { execFileSync, spawn } from "node:child_process";
import { cp, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, expect, it } from "vitest";
import { makeWorkspace, REPO_ROOT, randomToken, startBridgeProcess, stopAllBridges } from "../helpers/spawn-bridge.ts";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await stopAllBridges();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function connect(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: "e2e-lazy-toolsets", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const health = async (url: string, token: string) =>
  (await (await fetch(`${url}/health`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    tools: number;
    toolsLoaded: boolean;
    toolsetsLoaded: string[];
  };

const text = (result: unknown) => JSON.stringify((result as { content: unknown }).content);

it("answers calls that arrive before their toolsets are loaded, and says in /health what is loaded", async () => {
  const workspace = await makeWorkspace();
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q"], { cwd: workspace });
  const bridge = await startBridgeProcess({ workspace });
  expect(await health(bridge.url, bridge.token)).toMatchObject({ toolsLoaded: false, toolsetsLoaded: [] });
  const client = await connect(bridge.mcpUrl, bridge.token);
  const listed = await client.listTools();
  // Listed from the manifest (those only VS Code answers are hidden while it is away).
  expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["getGitStatus", "readFile", "findFiles"]));
  // Three toolsets at once, none loaded yet: each call waits for its own, then runs as a live tool.
  const [status, file, badArgs] = await Promise.all([
    client.callTool({ name: "getGitStatus", arguments: {} }),
    client.callTool({ name: "readFile", arguments: { path: "src/index.ts" } }),
    client.callTool({ name: "findFiles", arguments: { patern: "*.ts" } }),
  ]);
  expect(status.isError).toBeFalsy();
  expect(status.structuredContent).toMatchObject({ untracked: expect.arrayContaining(["src/index.ts"]) });
  expect(text(file)).toContain("export function greet");
  expect(badArgs.isError).toBe(true);
  expect(text(badArgs)).toContain("Invalid arguments for findFiles: unknown argument `patern`");
  const after = await health(bridge.url, bridge.token);
  expect(after.toolsetsLoaded.sort()).toEqual(["git", "workspace"]);
  expect(after.toolsLoaded).toBe(false);
});

it("answers a toolset whose module is missing with a clear isError, and keeps serving the others", async () => {
  // A copy of the package (the unbundled dist/ tree, so one toolset's module can be taken out).
  const pkg = await realpath(await mkdtemp(join(tmpdir(), "lazy-pkg-")));
  cleanups.push(() => rm(pkg, { recursive: true, force: true }));
  for (const part of ["bin", "dist", "package.json"]) await cp(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
  await symlink(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"));
  await rm(join(pkg, "dist/runtime/node-bundle.cjs"));
  await rm(join(pkg, "dist/src/tools/git/index.js"));
  const workspace = await makeWorkspace();
  const configDir = await realpath(await mkdtemp(join(tmpdir(), "lazy-cfg-")));
  cleanups.push(async () => {
    await rm(workspace, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  });
  const token = randomToken();
  const proc = spawn(
    process.execPath,
    [join(pkg, "bin/claude-ide-bridge.js"), "--workspace", workspace, "--port", "0", "--fixed-token", token],
    {
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  cleanups.push(async () => {
    proc.kill("SIGTERM");
    await exited;
  });
  let stderr = "";
  const port = await new Promise<string>((resolve, reject) => {
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    proc.once("exit", (code) => reject(new Error(`the bridge exited (${code}) before listening: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const client = await connect(`${url}/mcp`, token);
  const failed = await client.callTool({ name: "getGitStatus", arguments: {} });
  expect(failed.isError).toBe(true);
  expect(text(failed)).toMatch(/getGitStatus is unavailable: the bridge could not load its git tools \(.*Cannot find module/);
  expect(failed._meta).toEqual({ "claude-ide-bridge/error": { code: "toolset_not_loaded" } });
  const file = await client.callTool({ name: "readFile", arguments: { path: "src/index.ts" } });
  expect(text(file)).toContain("export function greet");
  expect((await health(url, token)).toolsetsLoaded).toEqual(["workspace"]);
  expect(proc.exitCode).toBeNull();
});
