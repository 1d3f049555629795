// The bin on Node runs the bundle (scripts/bundle.mjs) as scripts with V8's code cache:
// the first start writes the cache beside the bundle, named after the bundle's hash and the Node
// that made it; the next start takes it as it is; a cache V8 rejects (garbage here) costs nothing
// but a plain compile and is written anew, and another Node's cache of the same build stays; an
// edited bundle gets a cache of its own (and runs the edit) and the stale ones are removed. Each on
// a copy of the package, so the checkout's own dist/ is left alone.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeWorkspace, REPO_ROOT, randomToken } from "../helpers/spawn-bridge.ts";

const READY_TIMEOUT_MS = 60_000;
const CACHE = /^node-bundle\.[0-9a-f]{16}-\d+-node[\d.]+-\w+\.v8cache$/;

let pkg: string;
let runtimeDir: string;
let workspace: string;
let configDir: string;

beforeAll(async () => {
  pkg = await realpath(await mkdtemp(join(tmpdir(), "code-cache-pkg-")));
  for (const part of ["bin", "dist", "package.json"])
    await cp(join(REPO_ROOT, part), join(pkg, part), { recursive: true, preserveTimestamps: true });
  await symlink(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"));
  runtimeDir = join(pkg, "dist", "runtime");
  // Timestamps kept: the bin takes the bundle only when it is no older than the tree. The copy
  // starts with no cache, whatever the checkout's dist/ holds.
  for (const name of await caches("node-")) await rm(join(runtimeDir, name));
  workspace = await makeWorkspace();
  configDir = await realpath(await mkdtemp(join(tmpdir(), "code-cache-cfg-")));
});

afterAll(async () => {
  for (const dir of [pkg, workspace, configDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function caches(prefix = "node-bundle."): Promise<string[]> {
  return (await readdir(runtimeDir)).filter((name) => name.startsWith(prefix) && name.endsWith(".v8cache"));
}

const PART_CACHE = /^node-bundle-part\d+\.[0-9a-f]{16}-\d+-node[\d.]+-\w+\.v8cache$/;

/** Over MCP's HTTP transport: initialize, then one call of `tool`; its result's text. */
async function callTool(port: string, token: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const url = `http://127.0.0.1:${port}/mcp`;
  const post = (body: unknown, more: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { ...headers, ...more }, body: JSON.stringify(body) });
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "code-cache-test", version: "0" } },
  });
  const session = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
  await init.text();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
  const called = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: tool, arguments: args } }, session);
  return called.text();
}

/**
 * Starts the copy's bridge, waits until it serves (/health 200), stops it with SIGTERM and waits for
 * its exit. The cache is written as soon as the start is done, before any signal is handled.
 */
async function startAndStop(
  listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/,
  served?: (port: string, token: string) => Promise<void>,
): Promise<void> {
  const token = randomToken();
  const proc = spawn(
    process.execPath,
    [join(pkg, "bin/claude-ide-bridge.js"), "--workspace", workspace, "--port", "0", "--fixed-token", token],
    { env: { ...process.env, CLAUDE_CONFIG_DIR: configDir }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<number | null>((resolve) => proc.once("exit", resolve));
  let stderr = "";
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" within ${READY_TIMEOUT_MS} ms: ${stderr}`)), READY_TIMEOUT_MS);
      proc.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        const found = listening.exec(stderr);
        if (found?.[1]) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the bridge exited (${code}) before listening: ${stderr}`));
      });
    });
    const health = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    await served?.(port, token);
  } finally {
    proc.kill("SIGTERM");
    await exited;
  }
  expect(stderr).not.toMatch(/error/i);
}

it("writes the code cache on the first start, beside the bundle, and the next start takes it as it is", async () => {
  expect(await caches()).toEqual([]);
  expect(await caches("node-bundle-part")).toEqual([]);
  await startAndStop();
  // The start ran none of the second part's modules (the toolsets' code, the subcommands): it was not even compiled.
  expect(await caches("node-bundle-part")).toEqual([]);
  const [name, ...more] = await caches();
  expect(more).toEqual([]);
  expect(name).toMatch(CACHE);
  expect(name).toContain(`-node${process.versions.node}-`);
  const cache = join(runtimeDir, name ?? "");
  const first = await stat(cache);
  expect(first.size).toBeGreaterThan(0);
  await startAndStop();
  // Accepted: not written again (a rejected or missing cache is renamed into place anew).
  expect(await caches()).toEqual([name]);
  expect((await stat(cache)).ino).toBe(first.ino);
});

it("starts on a cache V8 rejects and writes a good one in its place, leaving another Node's be", async () => {
  const [name = ""] = await caches();
  const cache = join(runtimeDir, name);
  await writeFile(cache, "not a code cache");
  // The same build's cache for another Node: kept, so that switching Nodes does not rewrite on every start.
  const otherNode = name.replace(/-node[\d.]+-/, "-node0.0.0-");
  await writeFile(join(runtimeDir, otherNode), "another Node's cache");
  await startAndStop();
  expect((await caches()).sort()).toEqual([name, otherNode].sort());
  expect((await readFile(cache)).toString("latin1")).not.toBe("not a code cache");
  expect((await stat(cache)).size).toBeGreaterThan(1000);
});

it("gives an edited bundle a cache of its own, runs the edit, and removes the stale caches", async () => {
  const stale = await caches();
  expect(stale).toHaveLength(2);
  const bundle = join(runtimeDir, "node-bundle.cjs");
  // The same length and the same hash line: V8 checks only the length, so only the name (the
  // bundle's mtime in it) keeps the stale cache's code of the edited function from running.
  const text = await readFile(bundle, "latin1");
  const edited = text.replace("log.info(`listening on ${", "log.info(`listening at ${");
  expect(edited).not.toBe(text);
  await writeFile(bundle, edited, "latin1");
  await startAndStop(/listening at http:\/\/127\.0\.0\.1:(\d+)/);
  const now = await caches();
  expect(now).toHaveLength(1);
  expect(now[0]).toMatch(CACHE);
  expect(stale).not.toContain(now[0]);
});

it("loads the second part on a toolset's first call, which answers as always, and caches it too", async () => {
  // The bundle as the test before left it (edited).
  const listening = /listening (?:on|at) http:\/\/127\.0\.0\.1:(\d+)/;
  for (const name of await caches("node-bundle-part")) await rm(join(runtimeDir, name));
  let answer = "";
  await startAndStop(listening, async (port, token) => {
    answer = await callTool(port, token, "findFiles", { pattern: "**/*.ts" });
  });
  expect(answer).toContain("src/index.ts");
  expect(answer).not.toContain('"isError":true');
  const [name, ...more] = await caches("node-bundle-part");
  expect(more).toEqual([]);
  expect(name).toMatch(PART_CACHE);
  const first = await stat(join(runtimeDir, name ?? ""));
  expect(first.size).toBeGreaterThan(1000);
  // Taken as it is by the next bridge's first call.
  await startAndStop(listening, async (port, token) => {
    answer = await callTool(port, token, "findFiles", { pattern: "**/*.ts" });
  });
  expect(answer).toContain("src/index.ts");
  expect((await stat(join(runtimeDir, name ?? ""))).ino).toBe(first.ino);
});
