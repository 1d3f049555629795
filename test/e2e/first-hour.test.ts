// A new user's first hour, driven as they would drive it: a fresh HOME, the real Claude Code CLI,
// and repositories this test builds (a monorepo with a sub-package among them). What must hold:
// Claude Code started in a sub-package gets a bridge rooted at the repository's top level, which
// reads the files above the sub-package and sees the whole repository's git status; everything
// that stops the shim (a workspace that does not exist, a checkout never built, one whose
// dependencies are missing) is named, with the fix, on `claude mcp list`'s line rather than as
// "spawn ENOENT" or "Connection closed"; doctor fails an entry whose token the restarted bridge no
// longer takes instead of saying "All good."; init refuses the name "ide" and writes a portable
// entry on request, which connects once the variable it names is set; and the shim's help
// recommends only what works. The newest CLI only: 2.1.197 prints no reason for a failed server.
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertClaudeUsable, CLAUDE_CLIS, runClaude, type ClaudeCli } from "../helpers/claude-clis.ts";
import { claudeEnv } from "../helpers/claude-env.ts";
import { gitFixture, type GitFixture } from "../helpers/git-fixture.ts";
import { BRIDGE_BIN, REPO_ROOT, stopAllBridges } from "../helpers/spawn-bridge.ts";
import { bridgeOn, resultText, startShim } from "./shim-support.ts";

const cli = CLAUDE_CLIS[0] as ClaudeCli;
/** Several `claude mcp list` runs (a few seconds each, more on a loaded machine), and bridges starting. */
const SLOW = 180_000;

let scratch: string;
let home: string;
/** Where bridges started by shims log (TMPDIR), inside scratch, so nothing is left in the real temp dir. */
let temp: string;
let git: GitFixture;

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "first-hour-")));
  git = await gitFixture(scratch);
  home = join(scratch, "home");
  temp = join(scratch, "tmp");
  await mkdir(temp);
  await assertClaudeUsable(cli, home);
});

afterAll(async () => {
  await stopAllBridges();
  // Bridges the shims started, detached: stopped through their own command, then removed with scratch.
  const locks = join(home ?? "/nonexistent", ".claude", "ide");
  for (const name of await readdir(locks).catch(() => [])) {
    const port = /^(\d+)\.lock$/.exec(name)?.[1];
    if (port !== undefined) await bridgeCli(["stop", "--port", port], scratch);
  }
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, 60_000);

const userEnv = (extra: Record<string, string> = {}) => ({ TMPDIR: temp, ...extra });
const claude = (args: string[], cwd: string, extra?: Record<string, string>) => runClaude(cli, args, { cwd, home, env: userEnv(extra) });

/** This program as the user runs it from the checkout, with the fresh HOME. */
function bridgeCli(
  args: string[],
  cwd: string,
  extra: Record<string, string> = {},
): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BRIDGE_BIN, ...args],
      { cwd, env: { ...claudeEnv(home), ...userEnv(extra) }, timeout: 90_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}`, stdout }),
    );
  });
}

/** The line `claude mcp list` prints for server `name`. */
function lineOf(list: string, name: string): string {
  return list.split("\n").find((l) => l.startsWith(`${name}: `)) ?? `(no line for ${name} in:\n${list})`;
}

async function lockWorkspaces(): Promise<string[]> {
  const dir = join(home, ".claude", "ide");
  const names = (await readdir(dir).catch(() => [])).filter((n) => /^\d+\.lock$/.test(n));
  return Promise.all(names.map(async (n) => (JSON.parse(await readFile(join(dir, n), "utf8")) as { workspace: string }).workspace));
}

async function repo(name: string, files: Record<string, string>): Promise<string> {
  return git.repo(join(scratch, name), files);
}

describe("Claude Code started in a monorepo's sub-package", () => {
  it(
    "gets a bridge rooted at the repository's top level, which reads above the sub-package and sees the root's untracked files",
    async () => {
      const mono = await repo("mono", {
        "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }),
        "src/shared.ts": "export const shared = 42;\n",
        "packages/app/package.json": JSON.stringify({ name: "app", version: "1.0.0" }),
        "packages/app/src/index.ts": 'import { shared } from "../../../src/shared.js";\nexport const twice = shared * 2;\n',
      });
      await writeFile(join(mono, "notes.txt"), "not committed\n");
      const app = join(mono, "packages", "app");

      expect((await claude(["mcp", "add", "bridge", "--", process.execPath, BRIDGE_BIN, "shim"], app)).code).toBe(0);
      const list = await claude(["mcp", "list"], app);
      expect(lineOf(list.out, "bridge")).toMatch(/ - ✔ Connected$/);
      expect(await lockWorkspaces()).toEqual([mono]);

      // What the model would call, through a shim started where Claude Code starts it.
      const shim = startShim({ cwd: app, configDir: join(home, ".claude"), env: { CLAUDE_PROJECT_DIR: app, TMPDIR: temp } });
      try {
        await shim.initialize();
        // Paths are relative to the workspace root: the repository's, above the sub-package.
        const read = await shim.request(2, "tools/call", { name: "readFile", arguments: { path: "src/shared.ts" } });
        expect(resultText(read.result)).toContain("export const shared = 42;");
        const status = await shim.request(3, "tools/call", { name: "getGitStatus", arguments: {} });
        expect(resultText(status.result)).toContain("notes.txt");
      } finally {
        await shim.stop();
      }

      // doctor, run where the user is, names the project it chose and runs the entry for real.
      const doctor = await bridgeCli(["doctor"], app);
      expect(doctor.out).toContain(`claude-ide-bridge doctor for ${app} (project ${mono})`);
      expect(doctor.out).toMatch(/✓ claude config: .*mcpServers\.bridge → .*: connects \(claude-ide-bridge \S+, \d+ tools\)/);
    },
    SLOW,
  );
});

describe("what stops the shim is named on claude mcp list's line, with the fix", () => {
  it(
    "a workspace that does not exist: said as such (not spawn ENOENT, no pid ?, no empty log), and doctor fails the entry",
    async () => {
      const plain = await repo("plain", { "README.md": "# plain\n" });
      const nowhere = join(scratch, "no-such-dir");
      expect((await claude(["mcp", "add", "wrong", "--", process.execPath, BRIDGE_BIN, "shim", "--workspace", nowhere], plain)).code).toBe(
        0,
      );
      const line = lineOf((await claude(["mcp", "list"], plain)).out, "wrong");
      // The path itself is on the server's command line, which Claude Code shows as [redacted].
      expect(line).toMatch(
        /✘ Failed to connect — -32000: claude-ide-bridge: the workspace directory this server was given \(.*\) does not exist/,
      );
      expect(line).toContain("correct the workspace path in this server's entry");
      expect(line).not.toMatch(/ENOENT|pid \?|\(log: /);
      const doctor = await bridgeCli(["doctor"], plain);
      expect(doctor.code).toBe(1);
      expect(doctor.out).toMatch(/✗ claude config: .*mcpServers\.wrong → .*the workspace directory this server was given/);
      expect(doctor.out).not.toContain("All good");
      expect((await claude(["mcp", "remove", "wrong"], plain)).code).toBe(0);
    },
    SLOW,
  );

  it(
    "a checkout whose build is missing, and one whose dependencies are: the line says which and to run npm ci there",
    async () => {
      const plain = await repo("builds", { "README.md": "# builds\n" });
      const unbuilt = join(scratch, "unbuilt");
      const uninstalled = join(scratch, "uninstalled");
      for (const dir of [unbuilt, uninstalled]) {
        await cp(join(REPO_ROOT, "bin"), join(dir, "bin"), { recursive: true });
        await cp(join(REPO_ROOT, "package.json"), join(dir, "package.json"));
      }
      await cp(join(REPO_ROOT, "dist"), join(uninstalled, "dist"), { recursive: true });
      for (const [name, dir] of [
        ["unbuilt", unbuilt],
        ["uninstalled", uninstalled],
      ] as const) {
        expect(
          (await claude(["mcp", "add", name, "--", process.execPath, join(dir, "bin", "claude-ide-bridge.js"), "shim"], plain)).code,
        ).toBe(0);
      }
      const list = (await claude(["mcp", "list"], plain)).out;
      expect(lineOf(list, "unbuilt")).toContain(
        `✘ Failed to connect — -32000: claude-ide-bridge: the compiled code is missing (${unbuilt}/dist/runtime/main.js): run \`npm ci\` (or \`npm run build\`) in ${unbuilt}`,
      );
      expect(lineOf(list, "uninstalled")).toMatch(
        new RegExp(
          `✘ Failed to connect — -32000: claude-ide-bridge: the install in ${uninstalled} is incomplete \\(Cannot find package '[^']+'.*\\); run \`npm ci\` there`,
        ),
      );
      expect(list).not.toContain("CONNECTION_CLOSED");
    },
    SLOW,
  );
});

it(
  "doctor fails HTTP and WebSocket entries whose token the restarted bridge no longer takes, where it said ✓ before",
  async () => {
    const web = await repo("web", { "package.json": JSON.stringify({ name: "web" }) });
    const configDir = join(home, ".claude");
    let bridge = await bridgeOn({ workspace: web, configDir });
    const port = bridge.port;
    const add = (token: string) => [
      ["mcp", "add", "--transport", "http", "http-entry", `http://127.0.0.1:${port}/mcp`, "-H", `Authorization: Bearer ${token}`],
      [
        "mcp",
        "add-json",
        "ws-entry",
        JSON.stringify({ type: "ws", url: `ws://127.0.0.1:${port}/`, headers: { "x-claude-code-ide-authorization": token } }),
      ],
    ];
    for (const args of add(bridge.token)) expect((await claude(args, web)).code).toBe(0);
    const before = await bridgeCli(["doctor"], web);
    expect(before.out).toMatch(/✓ claude config: .*mcpServers\.http-entry → /);
    expect(before.out).toMatch(/✓ claude config: .*mcpServers\.ws-entry → /);

    // The bridge restarts on the same port with a new token, as a bridge without --fixed-token does.
    await bridge.stop();
    bridge = await bridgeOn({ workspace: web, configDir }, { port });
    try {
      expect(lineOf((await claude(["mcp", "list"], web)).out, "http-entry")).toMatch(/✘|Failed|401/);
      const after = await bridgeCli(["doctor"], web);
      expect(after.code).toBe(1);
      expect(after.out).not.toContain("All good");
      for (const name of ["http-entry", "ws-entry"]) {
        expect(after.out).toMatch(
          new RegExp(`✗ claude config: .*mcpServers\\.${name} → .*the bridge refuses this entry's token \\(HTTP 401\\)`),
        );
      }
      expect(after.out).toContain(`fix: put the current token in the entry (node ${BRIDGE_BIN} print-token --port ${port})`);
      expect(after.out).not.toContain(bridge.token);
    } finally {
      await bridge.stop();
    }
  },
  SLOW,
);

it(
  "init refuses the name ide, says its checkout path is this machine's, and its --portable entry connects once CLAUDE_IDE_BRIDGE_HOME is set",
  async () => {
    const team = await repo("team", { "package.json": JSON.stringify({ name: "team" }) });
    const ide = await bridgeCli(["init", "--name", "ide"], team);
    expect(ide.code).toBe(2);
    expect(ide.out).toMatch(/reserves the name "ide"[\s\S]*nothing was written/);
    await expect(readFile(join(team, ".mcp.json"), "utf8")).rejects.toThrow(/ENOENT/);

    const machine = await bridgeCli(["init"], team);
    expect(machine.out).toContain(
      `Machine-specific form: the entry names this checkout by its absolute path (${REPO_ROOT.replace(/\/$/, "")})`,
    );
    const portable = await bridgeCli(["init", "--portable"], team);
    expect(portable.out).toContain(`Portable form:`);
    const written = JSON.parse(await readFile(join(team, ".mcp.json"), "utf8")) as { mcpServers: Record<string, { args: string[] }> };
    expect(written.mcpServers["claude-ide-bridge"]?.args).toEqual(["${CLAUDE_IDE_BRIDGE_HOME}/bin/claude-ide-bridge.js", "shim"]);

    // Project servers need approval once; this setting is the non-interactive way.
    await writeFile(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    try {
      const unset = await claude(["mcp", "list"], team);
      expect(unset.out).toContain("Missing environment variables: CLAUDE_IDE_BRIDGE_HOME");
      const set = await claude(["mcp", "list"], team, { CLAUDE_IDE_BRIDGE_HOME: REPO_ROOT });
      expect(lineOf(set.out, "claude-ide-bridge")).toMatch(/ - ✔ Connected$/);
      expect(await lockWorkspaces()).toContain(team);
    } finally {
      await rm(join(home, ".claude", "settings.json"));
    }
  },
  SLOW,
);

it("the shim's help recommends what works from a checkout, not the unpublished npx form", async () => {
  const help = await bridgeCli(["shim", "--help"], scratch);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("claude mcp add claude-ide-bridge -- node /path/to/claude-ide-bridge/bin/claude-ide-bridge.js shim");
  expect(help.stdout).not.toMatch(/^\s*claude mcp add .*npx/m);
  expect(help.stdout).toMatch(
    /not on the npm registry yet: `npx -y claude-ide-bridge shim` works only in a\s+project where it is installed/,
  );
});
