// The CLI commands (src/cli): init's .mcp.json update (idempotent, other entries, unknown keys and
// formatting kept, broken files left alone) and gen-mcp-config's snippets. print-token and status,
// whose cases need a dead process, are in test/integration/cli/print-token-status.test.ts.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandContext, makeCommandScratch } from "../../helpers/command-context.ts";
import type { CommandContext } from "../../../src/cli/command-io.ts";
import { parseFlags } from "../../../src/cli/flags.ts";
import { CLIENTS, genMcpConfig, snippet } from "../../../src/cli/gen-mcp-config.ts";
import { init, updateMcpJson } from "../../../src/cli/init.ts";

let dir: string;
let project: string;
let configDir: string;

beforeEach(async () => {
  ({ dir, project, configDir } = await makeCommandScratch());
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const context = (cwd = project, self?: CommandContext["self"]) => commandContext({ dir, project, configDir }, { cwd, self });

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
    expect(await init(ctx, ["--workspace", "project", "--name", "bridge", "--command", "npx claude-ide-bridge", "--dry-run"])).toBe(0);
    expect(ctx.stderr).toMatch(/would be created with mcpServers\.bridge: npx claude-ide-bridge shim/);
    expect(ctx.stderr).toMatch(/names no path of this machine/);
    await expect(readFile(join(project, ".mcp.json"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("refuses the name ide unless --force, and writes nothing", async () => {
    const refused = context();
    expect(await init(refused, ["--name", "ide"])).toBe(2);
    expect(refused.stderr).toMatch(/reserves the name "ide"[\s\S]*nothing was written \(--force writes it anyway\)/);
    await expect(readFile(join(project, ".mcp.json"), "utf8")).rejects.toThrow(/ENOENT/);
    const forced = context();
    expect(await init(forced, ["--name", "ide", "--force"])).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(join(project, ".mcp.json"), "utf8")).mcpServers)).toEqual(["ide"]);
  });

  it("says a checkout's absolute path is machine-specific, and --portable names it through CLAUDE_IDE_BRIDGE_HOME", async () => {
    const checkout = { command: "node", args: ["/opt/cib/bin/claude-ide-bridge.js"] };
    const machine = context(project, checkout);
    expect(await init(machine, [])).toBe(0);
    expect(machine.stderr).toMatch(/Machine-specific form: the entry names this checkout by its absolute path \(\/opt\/cib\)/);
    expect(machine.stderr).toMatch(/run init --portable/);
    const portable = context(project, checkout);
    expect(await init(portable, ["--portable"])).toBe(0);
    expect(JSON.parse(await readFile(join(project, ".mcp.json"), "utf8")).mcpServers["claude-ide-bridge"]).toEqual({
      type: "stdio",
      command: "node",
      args: ["${CLAUDE_IDE_BRIDGE_HOME}/bin/claude-ide-bridge.js", "shim"],
    });
    expect(portable.stderr).toMatch(/Portable form: .*export CLAUDE_IDE_BRIDGE_HOME=\/opt\/cib/);
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
    expect(await init(initIde, ["--name", "ide", "--dry-run"])).toBe(2);
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
