// The real Claude Code CLI (2.1.197) runs the shim as a stdio MCP server (issue 4):
// `claude mcp add ide -- node bin/claude-ide-bridge.js shim`, then `claude mcp list` must show
// "✔ Connected", with the bridge already running, and with the bridge started only after
// Claude Code started the shim (within its startup timeout). Temporary HOME; the shim finds the
// bridge through the lock files in $HOME/.claude/ide, as it would for a user.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BRIDGE_BIN, makeWorkspace, REPO_ROOT, startBridgeProcess, stopAllBridges } from "../helpers/spawn-bridge.ts";
import { claudeEnv } from "../helpers/claude-env.ts";
import { runCli, shimIsWatching } from "./shim-support.ts";

const CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");

let home: string;
const workspaces: string[] = [];

beforeAll(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), "claude-home-")));
});
afterAll(async () => {
  await stopAllBridges();
  for (const w of workspaces) await rm(w, { recursive: true, force: true });
  if (home) await rm(home, { recursive: true, force: true });
});

function claude(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(CLAUDE_BIN, args, { cwd, env: claudeEnv(home), timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}${err && typeof err.code !== "number" ? `\n[${err.message}]` : ""}` });
    });
  });
}

async function workspace(): Promise<string> {
  const dir = await makeWorkspace();
  workspaces.push(dir);
  return dir;
}

/** A bridge whose lock lands where the shim, run by Claude Code with HOME=home, looks. */
const bridgeFor = (dir: string) => startBridgeProcess({ workspace: dir, configDir: join(home, ".claude") });

it("claude mcp list shows the shim ✔ Connected to a running bridge", async () => {
  const dir = await workspace();
  await bridgeFor(dir);
  const add = await claude(["mcp", "add", "ide", "--", process.execPath, BRIDGE_BIN, "shim"], dir);
  expect(add.code, add.out).toBe(0);
  const list = await claude(["mcp", "list"], dir);
  console.log(`claude mcp list:\n${list.out}`);
  expect(list.out).toMatch(/ide: .*claude-ide-bridge\.js shim - ✔ Connected/);
  const get = await claude(["mcp", "get", "ide"], dir);
  expect(get.out).toContain("Status: ✔ Connected");
});

it("connects when the bridge starts only after Claude Code started the shim", async () => {
  const dir = await workspace();
  const add = await claude(["mcp", "add", "ide", "--", process.execPath, BRIDGE_BIN, "shim"], dir);
  expect(add.code, add.out).toBe(0);
  const started = Date.now();
  const listing = claude(["mcp", "list"], dir);
  // The bridge starts only once the shim Claude Code started is looking for one.
  await expect.poll(() => shimIsWatching(dir), { timeout: 30_000, interval: 50 }).toBe(true);
  const shimAfter = Date.now() - started;
  await bridgeFor(dir);
  const list = await listing;
  console.log(`claude mcp list (shim watching after ${shimAfter} ms, then the bridge started; answered after ${Date.now() - started} ms):\n${list.out}`);
  expect(list.out).toMatch(/ide: .*claude-ide-bridge\.js shim - ✔ Connected/);
});

it("claude-ide-bridge init writes a .mcp.json entry that Claude Code connects with", async () => {
  const dir = await workspace();
  await bridgeFor(dir);
  const run = (args: string[]) => runCli(args, { cwd: dir, configDir: join(home, ".claude") });
  const first = await run(["init"]);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toMatch(/\.mcp\.json created with mcpServers\.claude-ide-bridge: node .*claude-ide-bridge\.js shim/);
  expect((await run(["init"])).stderr).toMatch(/nothing to change/);
  const written = JSON.parse(await readFile(join(dir, ".mcp.json"), "utf8"));
  expect(written.mcpServers["claude-ide-bridge"]).toEqual({ type: "stdio", command: "node", args: [BRIDGE_BIN, "shim"] });

  // Project servers need approval once; this setting is the non-interactive way.
  await mkdir(join(home, ".claude"), { recursive: true });
  await writeFile(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
  const list = await claude(["mcp", "list"], dir);
  expect(list.out).toMatch(/claude-ide-bridge: node .*claude-ide-bridge\.js shim - ✔ Connected/);

  const token = await run(["print-token"]);
  expect(token.stdout.trim()).toMatch(/^[0-9a-f]{48}$/);
  const status = await run(["status", "--json"]);
  expect(status.code).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ healthy: true });
  expect(status.stdout).not.toContain(token.stdout.trim());
});
