// The real Claude Code CLI (@anthropic-ai/claude-code 2.1.197) as a client: `claude mcp list` /
// `claude mcp get` connect to each configured server (initialize, initialized, GET, tools/list).
// They exit 0 even when a server fails, so the output is what is checked (external-tests.md §6).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO_ROOT, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { claudeEnv } from "../helpers/claude-env.ts";

const CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");

let bridge: BridgeProcess;
let home: string;

beforeAll(async () => {
  bridge = await startBridgeProcess();
  home = await realpath(await mkdtemp(join(tmpdir(), "claude-home-")));
});

afterAll(async () => {
  await bridge?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

function claude(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      CLAUDE_BIN,
      args,
      { cwd: bridge.workspace, env: claudeEnv(home), timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}${err && typeof err.code !== "number" ? `\n[${err.message}]` : ""}` });
      },
    );
  });
}

it("the Claude Code CLI connects over HTTP and WebSocket", async () => {
  const version = existsSync(CLAUDE_BIN) ? await claude(["--version"]) : undefined;
  if (!version || version.code !== 0 || !/\(Claude Code\)/.test(version.out)) {
    throw new Error(
      `Claude Code CLI not usable at ${CLAUDE_BIN}: ${version?.out.trim() ?? "missing"}\n` +
        "It is the devDependency @anthropic-ai/claude-code; run `npm ci` (its postinstall installs the native " +
        "binary) or `node node_modules/@anthropic-ai/claude-code/install.cjs`.",
    );
  }

  const addHttp = await claude([
    "mcp",
    "add",
    "--transport",
    "http",
    "ide-http",
    bridge.mcpUrl,
    // -H is variadic (`--header <header...>`): it must come after the positional arguments.
    "-H",
    `Authorization: Bearer ${bridge.token}`,
  ]);
  expect(addHttp.code, addHttp.out).toBe(0);
  const addWs = await claude([
    "mcp",
    "add-json",
    "ide-ws",
    JSON.stringify({ type: "ws", url: bridge.wsUrl, headers: { "x-claude-code-ide-authorization": bridge.token } }),
  ]);
  expect(addWs.code, addWs.out).toBe(0);

  const list = await claude(["mcp", "list"]);
  console.log(`claude mcp list:\n${list.out}`);
  expect(list.out).toMatch(/ide-http:.*✔ Connected/);

  const getWs = await claude(["mcp", "get", "ide-ws"]);
  console.log(`claude mcp get ide-ws:\n${getWs.out}`);
  expect(getWs.out).toContain("Status: ✔ Connected");

  const getHttp = await claude(["mcp", "get", "ide-http"]);
  expect(getHttp.out).toContain("Status: ✔ Connected");
});

it("keeps accepting Claude Code after many short connections (no lock-out by stale sessions)", async () => {
  // Claude Code does not DELETE its HTTP session when `claude mcp list` exits; so does a crashed or
  // restarted Claude Code. The default pool (--max-sessions 64) holds these; sessions idle for a
  // minute give way to new ones (test/unit/session-pool.test.ts).
  const results: string[] = [];
  for (let i = 0; i < 6; i++) {
    const list = await claude(["mcp", "list"]);
    results.push(list.out.split("\n").find((l) => l.startsWith("ide-http:")) ?? list.out);
  }
  expect(results.filter((l) => !l.includes("✔ Connected")), results.join("\n")).toEqual([]);
});
