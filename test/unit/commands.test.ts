// The CLI commands (src/cli): init's .mcp.json update (idempotent, other entries,
// unknown keys and formatting kept, broken files left alone), print-token and status against lock
// files and a live /health, and gen-mcp-config's snippets.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { CommandContext } from "../../src/cli/command-io.ts";
import { parseFlags } from "../../src/cli/flags.ts";
import { CLIENTS, genMcpConfig, snippet } from "../../src/cli/gen-mcp-config.ts";
import { init, updateMcpJson } from "../../src/cli/init.ts";
import { printToken } from "../../src/cli/print-token.ts";
import { status } from "../../src/cli/status.ts";

let dir: string;
let project: string;
let configDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "commands-"));
  project = join(dir, "project");
  configDir = join(dir, "config");
  await mkdir(join(project, "src"), { recursive: true });
  await mkdir(join(configDir, "ide"), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SELF = { command: "claude-ide-bridge", args: [] };

function context(cwd = project): CommandContext & { stdout: string; stderr: string } {
  const ctx = {
    runtime: {
      ...createNodeRuntime(),
      env: { CLAUDE_CONFIG_DIR: configDir, PATH: process.env.PATH },
      paths: { home: dir, cwd, tmp: tmpdir() },
    },
    stdout: "",
    stderr: "",
    out: (t: string) => {
      ctx.stdout += t;
    },
    err: (t: string) => {
      ctx.stderr += t;
    },
    self: SELF,
    runtimeVersion: process.versions.node,
    signalProcess: () => undefined,
  };
  return ctx;
}

const entry = { type: "stdio", command: "claude-ide-bridge", args: ["shim"] };

describe("updateMcpJson", () => {
  it("creates the file, then is idempotent", () => {
    const created = updateMcpJson(undefined, "claude-ide-bridge", entry);
    expect(created).toEqual({ outcome: "created", text: `${JSON.stringify({ mcpServers: { "claude-ide-bridge": entry } }, null, 2)}\n` });
    if (!("text" in created)) throw new Error("expected text");
    expect(updateMcpJson(created.text, "claude-ide-bridge", entry)).toEqual({ outcome: "unchanged", text: created.text });
  });

  it("adds beside other servers, keeping top-level keys, indentation and CRLF line ends", () => {
    const before = '{\r\n    "mcpServers": {\r\n        "other": { "command": "x" }\r\n    },\r\n    "$schema": "s"\r\n}\r\n';
    const result = updateMcpJson(before, "ide", entry);
    if (!("text" in result)) throw new Error(result.error);
    expect(result.outcome).toBe("added");
    expect(result.text).toBe(
      '{\r\n    "mcpServers": {\r\n        "other": {\r\n            "command": "x"\r\n        },\r\n        "ide": {\r\n            "type": "stdio",\r\n' +
        '            "command": "claude-ide-bridge",\r\n            "args": [\r\n                "shim"\r\n            ]\r\n        }\r\n    },\r\n    "$schema": "s"\r\n}\r\n',
    );
  });

  it("updates its own entry, keeping keys the user added there, and says what it was", () => {
    const before = JSON.stringify({ mcpServers: { ide: { command: "node", args: ["old.js", "shim"], env: { A: "1" }, timeout: 5000 } } });
    const result = updateMcpJson(before, "ide", entry);
    if (!("text" in result)) throw new Error(result.error);
    expect(result).toMatchObject({ outcome: "updated", previous: "node old.js shim" });
    expect(JSON.parse(result.text)).toEqual({
      mcpServers: { ide: { command: "claude-ide-bridge", args: ["shim"], env: { A: "1" }, timeout: 5000, type: "stdio" } },
    });
    expect(result.text.includes("\n")).toBe(false); // a one-line file stays one line
  });

  it("leaves files it cannot understand alone, saying why", () => {
    expect(updateMcpJson("{ nope", "ide", entry)).toMatchObject({ error: expect.stringMatching(/^not valid JSON/) });
    expect(updateMcpJson("[]", "ide", entry)).toEqual({ error: "the top level is not a JSON object" });
    expect(updateMcpJson('{"mcpServers": []}', "ide", entry)).toEqual({ error: '"mcpServers" is not an object' });
    expect(updateMcpJson('{"mcpServers": {"ide": "x"}}', "ide", entry)).toEqual({ error: '"mcpServers.ide" is not an object' });
  });
});

describe("init", () => {
  it("writes .mcp.json in the workspace, reports it, and reports 'nothing to change' the second time", async () => {
    const first = context();
    expect(await init(first, [])).toBe(0);
    const written = JSON.parse(await readFile(join(project, ".mcp.json"), "utf8"));
    expect(written).toEqual({ mcpServers: { "claude-ide-bridge": { type: "stdio", command: "claude-ide-bridge", args: ["shim"] } } });
    expect(first.stderr).toMatch(/\.mcp\.json created with mcpServers\.claude-ide-bridge: claude-ide-bridge shim/);
    const second = context();
    expect(await init(second, ["--workspace", project])).toBe(0);
    expect(second.stderr).toMatch(/already has mcpServers\.claude-ide-bridge: claude-ide-bridge shim; nothing to change/);
  });

  it("--command, --name and --dry-run", async () => {
    const ctx = context(dir);
    expect(await init(ctx, ["--workspace", "project", "--name", "ide", "--command", "npx claude-ide-bridge", "--dry-run"])).toBe(0);
    expect(ctx.stderr).toMatch(/would be created with mcpServers\.ide: npx claude-ide-bridge shim/);
    await expect(readFile(join(project, ".mcp.json"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("refuses a broken .mcp.json and a missing directory without writing", async () => {
    await writeFile(join(project, ".mcp.json"), "{ broken");
    const ctx = context();
    expect(await init(ctx, [])).toBe(1);
    expect(ctx.stderr).toMatch(/not valid JSON.*Nothing was changed/);
    expect(await readFile(join(project, ".mcp.json"), "utf8")).toBe("{ broken");
    const missing = context();
    expect(await init(missing, ["--workspace", join(dir, "nope")])).toBe(1);
    expect(missing.stderr).toMatch(/is not a directory/);
  });
});

describe("print-token and status", () => {
  let server: Server;
  let port: number;
  const token = "0123456789abcdef0123456789abcdef";

  beforeEach(async () => {
    server = createServer((req, res) => {
      const ok = req.url === "/health" && req.headers.authorization === `Bearer ${token}`;
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          ok
            ? { status: "ok", version: "0.1.0", uptimeMs: 65_000, activeSessions: 1, sessionsInGrace: 2, tools: 6 }
            : { error: "unauthorized" },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function writeLock(lockPort: number, fields: Record<string, unknown>): Promise<void> {
    const lock = {
      pid: process.pid,
      workspace: project,
      workspaceFolders: [project],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: token,
      isBridge: true,
      ...fields,
    };
    await writeFile(join(configDir, "ide", `${lockPort}.lock`), JSON.stringify(lock));
  }

  it("print-token prints the token of the bridge for the directory, or of --port, and nothing else", async () => {
    await writeLock(port, {});
    const ctx = context(join(project, "src"));
    expect(await printToken(ctx, [])).toBe(0);
    expect(ctx.stdout).toBe(`${token}\n`);
    const byPort = context(dir);
    expect(await printToken(byPort, ["--port", String(port)])).toBe(0);
    expect(byPort.stdout).toBe(`${token}\n`);
    const elsewhere = context(dir);
    expect(await printToken(elsewhere, [])).toBe(1);
    expect(elsewhere.stdout).toBe("");
    expect(elsewhere.stderr).toMatch(/no running bridge whose workspace contains/);
  });

  it("print-token skips locks of dead processes", async () => {
    await writeLock(port, { pid: spawnSync(process.execPath, ["-e", "0"]).pid });
    const ctx = context();
    expect(await printToken(ctx, [])).toBe(1);
  });

  it("status shows lock, pid and /health; --json for scripts; never the token", async () => {
    await writeLock(port, {});
    await writeLock(1025, { pid: spawnSync(process.execPath, ["-e", "0"]).pid });
    const human = context();
    expect(await status(human, [])).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`claude-ide-bridge on port ${port} \\(pid ${process.pid} running\\) for ${project}`));
    expect(human.stdout).toMatch(/health: ok, version 0\.1\.0, up 1m 5s, 1 session\(s\) connected, 2 in grace, 6 tools/);
    expect(human.stdout).toMatch(/port 1025 \(pid \d+ not running\)[\s\S]*unavailable \(process not running \(stale lock file\)\)/);
    const json = context();
    expect(await status(json, ["--json", "--port", "1025"])).toBe(1);
    const parsed = JSON.parse(json.stdout) as { healthy: boolean; bridges: Array<{ port: number; alive: boolean }> };
    expect(parsed).toMatchObject({ healthy: false, bridges: [{ port: 1025, alive: false }] });
    expect(human.stdout + json.stdout).not.toContain(token);
  });

  it("status names the lock the shim would use here, and says why it skips others", async () => {
    await writeLock(port, {});
    await writeLock(1026, { transport: "sse" });
    await writeLock(1027, { pid: undefined });
    const human = context(join(project, "src"));
    expect(await status(human, [])).toBe(0);
    expect(human.stdout).toMatch(/port 1026 \(pid \d+ running\)[\s\S]*skipped by the shim and print-token: not a WebSocket lock/);
    expect(human.stdout).toMatch(/port 1027 \(no pid, not running\)[\s\S]*unavailable \(process not running \(stale lock file\)\)/);
    expect(human.stdout).toContain(`In ${join(project, "src")} the shim and print-token use port ${port}.`);
    const elsewhere = context(dir);
    await status(elsewhere, []);
    expect(elsewhere.stdout).toContain(`In ${dir} the shim finds no usable lock.`);
  });

  it("print-token --port says why it passed the port's lock over", async () => {
    await writeLock(1028, { pid: 0 });
    const ctx = context();
    expect(await printToken(ctx, ["--port", "1028"])).toBe(1);
    expect(ctx.stderr).toMatch(/no running bridge on port 1028 \(process not running \(stale lock file\)\)/);
  });

  it("status says when no bridge runs", async () => {
    const ctx = context();
    expect(await status(ctx, [])).toBe(1);
    expect(ctx.stdout).toMatch(/No bridge is running/);
  });
});

describe("gen-mcp-config", () => {
  const o = {
    name: "claude-ide-bridge",
    workspace: "/work/app",
    self: { command: "node", args: ["/opt/cib/bin/claude-ide-bridge.js"] },
    command: undefined,
  };

  it("prints only the config, valid JSON (TOML for codex), naming the workspace where the client has no project", () => {
    for (const client of CLIENTS) {
      const { config } = snippet(client, o);
      expect(config).toContain("claude-ide-bridge.js");
      if (client !== "codex") expect(() => JSON.parse(config) as unknown, client).not.toThrow();
    }
    expect(snippet("claude", o).advice).toContain("claude mcp add claude-ide-bridge -- node /opt/cib/bin/claude-ide-bridge.js shim");
    expect(snippet("codex", o).config).toBe(
      '[mcp_servers.claude-ide-bridge]\ncommand = "node"\nargs = ["/opt/cib/bin/claude-ide-bridge.js", "shim", "--workspace", "/work/app"]\n',
    );
    expect(snippet("vscode", o).config).toContain('"${workspaceFolder}"');
    // No --no-spawn anywhere: Claude Desktop starts the shim outside any project, and it starts the bridge.
    expect(JSON.parse(snippet("claude-desktop", o).config)).toEqual({
      mcpServers: {
        "claude-ide-bridge": { command: "node", args: ["/opt/cib/bin/claude-ide-bridge.js", "shim", "--workspace", "/work/app"] },
      },
    });
  });

  it("writes the config to stdout and the advice to stderr, so `> .cursor/mcp.json` gives a valid file", async () => {
    const ctx = context();
    expect(await genMcpConfig(ctx, ["cursor"])).toBe(0);
    expect(JSON.parse(ctx.stdout)).toEqual({
      mcpServers: { "claude-ide-bridge": { command: "claude-ide-bridge", args: ["shim", "--workspace", "${workspaceFolder}"] } },
    });
    expect(ctx.stderr).toMatch(/^Cursor: \.cursor\/mcp\.json/);
    const ide = context();
    expect(await genMcpConfig(ide, ["claude", "--name", "ide"])).toBe(0);
    expect(ide.stderr).toMatch(/reserves the name "ide"/);
    const initIde = context();
    expect(await init(initIde, ["--name", "ide", "--dry-run"])).toBe(0);
    expect(initIde.stderr).toMatch(/reserves the name "ide"/);
  });

  it("the command: help without a client, usage error for an unknown one", async () => {
    const none = context();
    expect(await genMcpConfig(none, [])).toBe(2);
    expect(none.stderr).toMatch(/^Usage: claude-ide-bridge gen-mcp-config/);
    await expect(genMcpConfig(context(), ["emacs"])).rejects.toThrow(/unknown client "emacs"/);
    const cursor = context();
    expect(await genMcpConfig(cursor, ["cursor", "--command", "npx claude-ide-bridge"])).toBe(0);
    expect(cursor.stdout).toContain('"command": "npx"');
  });
});

describe("parseFlags", () => {
  it("reads values, booleans and positionals, and refuses the rest", () => {
    const parsed = parseFlags(["a", "--port=1", "--json"], { values: ["--port"], booleans: ["--json"], maxPositionals: 1 });
    expect([parsed.positionals, parsed.values.get("--port"), parsed.booleans.has("--json")]).toEqual([["a"], "1", true]);
    expect(() => parseFlags(["--x"], {})).toThrow(/unknown option --x/);
    expect(() => parseFlags(["--port"], { values: ["--port"] })).toThrow(/--port needs a value/);
    expect(() => parseFlags(["a"], {})).toThrow(/unexpected argument "a"/);
    expect(() => parseFlags(["--json=1"], { booleans: ["--json"] })).toThrow(/takes no value/);
  });
});
