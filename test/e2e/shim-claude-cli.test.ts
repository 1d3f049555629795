// The real Claude Code CLI, both generations, runs the shim as users add it: `claude mcp
// add bridge -- node bin/claude-ide-bridge.js shim` (never the name "ide": Claude Code reserves it,
// protocol.md A4). `claude mcp list` must show "✔ Connected": with the bridge running; with none,
// the shim starting one rooted at the project around the directory Claude Code names
// (CLAUDE_PROJECT_DIR, where it was started: here the project's src/), shared by two shims that
// start together (shim-spawn.test.ts: the rest); with a bridge started after the shim (--no-spawn); and with --no-spawn and no bridge at all, the reason
// instead of a timeout. Temporary HOME; the shim finds bridges through $HOME/.claude/ide.
import { mkdir, readdir, readFile, realpath, rm, writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertClaudeUsable, CLAUDE_CLIS, runClaude, type ClaudeCli } from "../helpers/claude-clis.ts";
import { BRIDGE_BIN, makeWorkspace, startBridgeProcess, stopAllBridges } from "../helpers/spawn-bridge.ts";
import { runCli, shimIsWatching } from "./shim-support.ts";

const workspaces: string[] = [];
afterAll(async () => {
  await stopAllBridges();
  for (const w of workspaces) await rm(w, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const dir = await makeWorkspace();
  workspaces.push(dir);
  return dir;
}

const SHIM = [process.execPath, BRIDGE_BIN, "shim"];

describe.each(CLAUDE_CLIS)("Claude Code $version", (cli: ClaudeCli) => {
  // The older release differs in its handshake only (initialize, not server/discover): the first
  // case shows the shim speaks it; what the shim does around the connection (spawning, waiting,
  // init's entry) is the same for both, so the other cases run with the newest release alone.
  const newest = cli === CLAUDE_CLIS[0];
  let home: string;
  const configDir = () => join(home, ".claude");
  const claude = (args: string[], cwd: string) => runClaude(cli, args, { cwd, home });
  /** A bridge whose lock lands where the shim, run by Claude Code with HOME=home, looks. */
  const bridgeFor = (dir: string) => startBridgeProcess({ workspace: dir, configDir: configDir() });
  /** The bridge locks in the lock directory, read as JSON. */
  const bridgeLocks = async () => {
    const dir = join(configDir(), "ide");
    const names = (await readdir(dir).catch(() => [])).filter((n) => /^\d+\.lock$/.test(n));
    return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, n), "utf8")) as { pid: number; workspace: string }));
  };

  beforeAll(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), "claude-home-")));
    await assertClaudeUsable(cli, home);
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("claude mcp list shows the shim ✔ Connected to a running bridge", async () => {
    const dir = await workspace();
    const bridge = await bridgeFor(dir);
    expect((await claude(["mcp", "add", "bridge", "--", ...SHIM], dir)).code).toBe(0);
    const list = await claude(["mcp", "list"], dir);
    expect(list.out).toMatch(/bridge: .*claude-ide-bridge\.js shim - ✔ Connected/);
    const get = await claude(["mcp", "get", "bridge"], dir);
    expect(get.out).toContain("Status: ✔ Connected");
    await bridge.stop();
  });

  it.runIf(newest)(
    "with no bridge, the shim starts one for the project (around CLAUDE_PROJECT_DIR: Claude Code started in its src/), which two shims starting at once share",
    async () => {
      const dir = await workspace();
      const src = join(dir, "src");
      // Two servers, so the CLI starts two shims at the same moment.
      for (const name of ["bridge", "bridge-2"]) expect((await claude(["mcp", "add", name, "--", ...SHIM], src)).code).toBe(0);
      try {
        const list = await claude(["mcp", "list"], src);
        expect(list.out).toMatch(/\nbridge: .*shim - ✔ Connected/);
        expect(list.out).toMatch(/\nbridge-2: .*shim - ✔ Connected/);
        const locks = await bridgeLocks();
        expect(
          locks.map((l) => l.workspace),
          list.out,
        ).toEqual([dir]);
      } finally {
        const stop = await runCli(["stop"], { cwd: dir, configDir: configDir() });
        expect(stop.code, stop.stderr).toBe(0);
      }
      expect(await bridgeLocks()).toEqual([]);
    },
  );

  it.runIf(newest)("connects when the bridge starts only after Claude Code started the shim (--no-spawn)", async () => {
    const dir = await workspace();
    expect((await claude(["mcp", "add", "bridge", "--", ...SHIM, "--no-spawn", "--connect-timeout", "25000"], dir)).code).toBe(0);
    const listing = claude(["mcp", "list"], dir);
    // The bridge starts only once the shim Claude Code started is looking for one.
    await expect.poll(() => shimIsWatching(dir), { timeout: 30_000, interval: 50 }).toBe(true);
    const bridge = await bridgeFor(dir);
    const list = await listing;
    expect(list.out).toMatch(/bridge: .*claude-ide-bridge\.js shim --no-spawn.* - ✔ Connected/);
    await bridge.stop();
  });

  it.runIf(newest)("with --no-spawn and no bridge, the shim answers with the reason instead of letting the client time out", async () => {
    const dir = await workspace();
    expect((await claude(["mcp", "add", "bridge", "--", ...SHIM, "--no-spawn"], dir)).code).toBe(0);
    const list = await claude(["mcp", "list"], dir);
    expect(list.out).toMatch(/bridge: .* - ✘ Failed to connect/);
    expect(list.out).not.toMatch(/timed out/i);
    // 2.1.197 prints no reason; the newer CLI prints the error the shim answered initialize with.
    if (cli.version !== "2.1.197")
      expect(list.out).toMatch(
        /-32000: claude-ide-bridge: no bridge serves .* this server may not start one \(no-spawn\); start one with `claude-ide-bridge --workspace /,
      );
  });

  it.runIf(newest)("claude-ide-bridge init writes a .mcp.json entry that Claude Code connects with", async () => {
    const dir = await workspace();
    const bridge = await bridgeFor(dir);
    const run = (args: string[]) => runCli(args, { cwd: dir, configDir: configDir() });
    const first = await run(["init"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/\.mcp\.json created with mcpServers\.claude-ide-bridge: node .*claude-ide-bridge\.js shim/);
    expect((await run(["init"])).stderr).toMatch(/nothing to change/);
    const written = JSON.parse(await readFile(join(dir, ".mcp.json"), "utf8"));
    expect(written.mcpServers["claude-ide-bridge"]).toEqual({ type: "stdio", command: "node", args: [BRIDGE_BIN, "shim"] });

    // Project servers need approval once; this setting is the non-interactive way.
    await mkdir(configDir(), { recursive: true });
    await writeFile(join(configDir(), "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    const list = await claude(["mcp", "list"], dir);
    expect(list.out).toMatch(/claude-ide-bridge: node .*claude-ide-bridge\.js shim - ✔ Connected/);

    const token = await run(["print-token"]);
    expect(token.stdout.trim()).toMatch(/^[0-9a-f]{48}$/);
    const status = await run(["status", "--json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ healthy: true });
    expect(status.stdout).not.toContain(token.stdout.trim());
    await rm(join(configDir(), "settings.json"));
    await bridge.stop();
  });
});
