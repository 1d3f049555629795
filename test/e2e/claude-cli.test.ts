// The real Claude Code CLI as a client, both generations (test/helpers/claude-clis.ts): `claude
// mcp list` / `claude mcp get` connect to each configured server (initialize, initialized, GET,
// tools/list; 2.1.332 probes with server/discover first and, answered, speaks 2026-07-28 without
// initialize: test/e2e/claude-modern.test.ts records that). They exit 0 even
// when a server fails, so the output is what is checked (external-tests.md §6). In 2.1.197 ws
// servers are not printed by `mcp list`; `mcp get` shows them.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertClaudeUsable, CLAUDE_CLIS, runClaude, type ClaudeCli } from "../helpers/claude-clis.ts";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess();
});

afterAll(async () => {
  await bridge?.stop();
});

describe.each(CLAUDE_CLIS)("Claude Code $version", (cli: ClaudeCli) => {
  let home: string;
  const claude = (args: string[]) => runClaude(cli, args, { cwd: bridge.workspace, home });

  beforeAll(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), "claude-home-")));
    await assertClaudeUsable(cli, home);
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  // Four runs of Claude Code, each a cold start of its binary and a connection (five: 16.6 s quiet).
  it("connects over HTTP and WebSocket", { timeout: 120_000 }, async () => {
    // -H is variadic (`--header <header...>`): it must come after the positional arguments.
    const addHttp = await claude([
      "mcp",
      "add",
      "--transport",
      "http",
      "bridge-http",
      bridge.mcpUrl,
      "-H",
      `Authorization: Bearer ${bridge.token}`,
    ]);
    expect(addHttp.code, addHttp.out).toBe(0);
    const ws = { type: "ws", url: bridge.wsUrl, headers: { "x-claude-code-ide-authorization": bridge.token } };
    const addWs = await claude(["mcp", "add-json", "bridge-ws", JSON.stringify(ws)]);
    expect(addWs.code, addWs.out).toBe(0);

    // Both generations print the HTTP server on `mcp list` (its line is the HTTP check; a `mcp get`
    // of it connected the same way again); 2.1.197 prints no ws server there, so `mcp get` checks it.
    const list = await claude(["mcp", "list"]);
    expect(list.out).toMatch(/bridge-http:.*✔ Connected/);
    const getWs = await claude(["mcp", "get", "bridge-ws"]);
    expect(getWs.out).toContain("Status: ✔ Connected");
  });

  // Many CLI runs: 20 s quiet on three test workers.
  it("keeps accepting Claude Code after many short connections (no lock-out by stale sessions)", { timeout: 120_000 }, async () => {
    // Claude Code does not DELETE its HTTP session when `claude mcp list` exits; so does a crashed or
    // restarted Claude Code. The default pool (--max-sessions 64) holds these; sessions idle for a
    // minute give way to new ones (test/unit/transports/session-pool.test.ts).
    const results: string[] = [];
    for (let i = 0; i < 6; i++) {
      const list = await claude(["mcp", "list"]);
      results.push(list.out.split("\n").find((l) => l.startsWith("bridge-http:")) ?? list.out);
    }
    expect(
      results.filter((l) => !l.includes("✔ Connected")),
      results.join("\n"),
    ).toEqual([]);
  });
});
