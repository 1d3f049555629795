import { describe, expect, it } from "vitest";
import { parseCli, type CliFlags } from "../../../src/config/cli.ts";
import { resolveConfig, type ConfigSources } from "../../../src/config/load.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { BridgeError } from "../../../src/errors.ts";

const TOKEN_A = "token-from-flag-0123456789";
const TOKEN_B = "token-from-file-0123456789";
const TOKEN_C = "token-from-env-01234567890";

function sources(files: Record<string, string>, env: Record<string, string> = {}): ConfigSources & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    cwd: "/home/me/project",
    env,
    readConfigFile: async (path) => {
      reads.push(path);
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: "ENOENT" });
      return text;
    },
  };
}

function cli(argv: string[]): CliFlags {
  const result = parseCli(argv);
  if (result.kind !== "run") throw new Error("expected run");
  return result.flags;
}

async function configError(flags: CliFlags, src: ConfigSources): Promise<string> {
  const err: unknown = await resolveConfig(flags, src).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BridgeError);
  if (!(err instanceof BridgeError)) throw new Error("unreachable");
  expect(err.code).toBe("config_invalid");
  return err.message;
}

describe("resolveConfig", () => {
  it("gives the defaults with the cwd as workspace", async () => {
    const src = sources({});
    expect(await resolveConfig({}, src)).toEqual({ ...DEFAULT_CONFIG, workspace: "/home/me/project" });
    expect(src.reads).toEqual([]);
  });

  it("maps every file key onto BridgeConfig", async () => {
    const file = {
      workspace: "/srv/ws",
      port: 4000,
      bind: "::1",
      ideName: "Neo",
      fixedToken: TOKEN_B,
      slim: true,
      toolsets: ["git", "code-navigation"],
      excludeToolsets: ["github"],
      profile: "vscode",
      verbose: true,
      jsonl: true,
      timeout: 2000,
      maxResultSize: 64,
      gracePeriod: 6000,
      toolRateLimit: 5,
      requestRateLimit: 7,
      maxSessions: 3,
      maxWsSessions: 9,
      maxSessionStagedMb: 8,
      maxStagedMb: 24,
      allowPushToMain: true,
      allowGitDirWrites: true,
      allowGitHooks: true,
      allowCommands: ["make-docs", "npm exec"],
      allowPrivateHttp: true,
      vscodeAllowCommands: ["vscode.getEditorLayout"],
      vscodeAllowTasks: ["build"],
      workspaceFolders: ["/srv/web"],
      spawnRoots: ["/srv/spawn"],
      allowVSCodeDirWrites: true,
      passEnv: ["NPM_TOKEN"],
      idleTimeout: 60_000,
      lspMemoryMb: 512,
      lspMaxServers: 3,
      exclusive: true,
      plugins: ["./tools/my-plugin", "@acme/bridge-plugin"],
      pluginWatch: true,
      claudeDriver: "subprocess",
      claudeBinary: "/opt/claude/bin/claude",
      automationPolicy: "/srv/ws/policy.json",
      automationConcurrency: 3,
    };
    const config = await resolveConfig({ configPath: "/etc/b.json" }, sources({ "/etc/b.json": JSON.stringify(file) }));
    expect(config).toEqual({
      workspace: "/srv/ws",
      port: 4000,
      bind: "::1",
      ideName: "Neo",
      fixedToken: TOKEN_B,
      slim: true,
      toolsets: ["git", "code-navigation"],
      excludeToolsets: ["github"],
      profile: "vscode",
      verbose: true,
      jsonl: true,
      timeoutMs: 2000,
      maxResultSizeKb: 64,
      gracePeriodMs: 6000,
      toolRateLimit: 5,
      requestRateLimit: 7,
      maxSessions: 3,
      maxWsSessions: 9,
      maxSessionStagedMb: 8,
      maxStagedMb: 24,
      allowPushToMain: true,
      allowGitDirWrites: true,
      allowGitHooks: true,
      allowCommands: ["make-docs", "npm exec"],
      allowPrivateHttp: true,
      vscodeAllowCommands: ["vscode.getEditorLayout"],
      vscodeAllowTasks: ["build"],
      workspaceFolders: ["/srv/web"],
      spawnRoots: ["/srv/spawn"],
      allowVSCodeDirWrites: true,
      passEnv: ["NPM_TOKEN"],
      idleTimeoutMs: 60_000,
      exclusive: true,
      // Relative to the config file's directory, not the working directory.
      plugins: ["/etc/tools/my-plugin", "@acme/bridge-plugin"],
      pluginWatch: true,
      lsp: {},
      lspMemoryMb: 512,
      lspMaxServers: 3,
      remote: DEFAULT_CONFIG.remote,
      automation: { claudeDriver: "subprocess", claudeBinary: "/opt/claude/bin/claude", policyPath: "/srv/ws/policy.json", concurrency: 3 },
    });
  });

  it("takes --workspace-folder and --spawn-root (repeatable), relative to the working directory", async () => {
    const config = await resolveConfig(
      cli(["--workspace-folder", "web", "--workspace-folder=/srv/docs", "--spawn-root", "../clones"]),
      sources({}),
    );
    expect(config.workspaceFolders).toEqual(["/home/me/project/web", "/srv/docs"]);
    expect(config.spawnRoots).toEqual(["/home/me/clones"]);
  });

  it("takes --pass-env (repeatable), never the bridge's own token or a name that is not one", async () => {
    const src = sources({});
    expect((await resolveConfig(cli(["--pass-env", "NPM_TOKEN", "--pass-env=DATABASE_URL"]), src)).passEnv).toEqual([
      "NPM_TOKEN",
      "DATABASE_URL",
    ]);
    expect((await resolveConfig(cli([]), src)).passEnv).toEqual([]);
    for (const name of ["CLAUDE_IDE_BRIDGE_TOKEN", "CLAUDE_IDE_BRIDGE_CONFIG", "A=B", "1X"]) {
      await expect(resolveConfig(cli(["--pass-env", name]), src)).rejects.toMatchObject({ code: "config_invalid" });
    }
  });

  it("takes --allow-command (repeatable) and --allow-private-http, and never an interpreter", async () => {
    const src = sources({});
    const config = await resolveConfig(cli(["--allow-command", "make-docs", "--allow-command=npm exec", "--allow-private-http"]), src);
    expect(config.allowCommands).toEqual(["make-docs", "npm exec"]);
    expect(config.allowPrivateHttp).toBe(true);
    expect((await resolveConfig(cli([]), src)).allowCommands).toEqual([]);
    for (const entry of ["node", "python3.12", "bash", "sh", "/usr/bin/perl", "npm explore", "env", "make"]) {
      await expect(resolveConfig(cli(["--allow-command", entry]), src)).rejects.toMatchObject({
        code: "config_invalid",
        message: expect.stringMatching(/allow-command/),
      });
    }
    await expect(
      resolveConfig({ configPath: "/c.json" }, sources({ "/c.json": JSON.stringify({ allowCommands: ["ruby"] }) })),
    ).rejects.toMatchObject({ code: "config_invalid" });
  });

  it("lets flags beat the file, and the file beat the defaults", async () => {
    const src = sources({ "/home/me/project/b.json": JSON.stringify({ port: 4000, bind: "::1", timeout: 2000, slim: true }) });
    const config = await resolveConfig(cli(["--config", "b.json", "--port", "5000", "--verbose"]), src);
    expect(src.reads).toEqual(["/home/me/project/b.json"]);
    expect(config.port).toBe(5000);
    expect(config.bind).toBe("::1");
    expect(config.timeoutMs).toBe(2000);
    expect(config.slim).toBe(true);
    expect(config.verbose).toBe(true);
    expect(config.gracePeriodMs).toBe(DEFAULT_CONFIG.gracePeriodMs);
  });

  it("reads CLAUDE_IDE_BRIDGE_CONFIG when --config is absent, and --config wins over it", async () => {
    const files = { "/a.json": JSON.stringify({ port: 4001 }), "/b.json": JSON.stringify({ port: 4002 }) };
    expect((await resolveConfig({}, sources(files, { CLAUDE_IDE_BRIDGE_CONFIG: "/a.json" }))).port).toBe(4001);
    expect((await resolveConfig({ configPath: "/b.json" }, sources(files, { CLAUDE_IDE_BRIDGE_CONFIG: "/a.json" }))).port).toBe(4002);
  });

  it("uses CLAUDE_IDE_BRIDGE_TOKEN only as a fallback", async () => {
    const env = { CLAUDE_IDE_BRIDGE_TOKEN: TOKEN_C };
    const files = { "/t.json": JSON.stringify({ fixedToken: TOKEN_B }) };
    expect((await resolveConfig({}, sources(files, env))).fixedToken).toBe(TOKEN_C);
    expect((await resolveConfig({ configPath: "/t.json" }, sources(files, env))).fixedToken).toBe(TOKEN_B);
    expect((await resolveConfig({ configPath: "/t.json", fixedToken: TOKEN_A }, sources(files, env))).fixedToken).toBe(TOKEN_A);
    expect((await resolveConfig({}, sources(files, { CLAUDE_IDE_BRIDGE_TOKEN: "" }))).fixedToken).toBeUndefined();
    expect(await configError({}, sources({}, { CLAUDE_IDE_BRIDGE_TOKEN: "short" }))).toMatch(/^CLAUDE_IDE_BRIDGE_TOKEN: /);
  });

  it("makes the workspace absolute against the cwd", async () => {
    expect((await resolveConfig({ workspace: "../other/./ws" }, sources({}))).workspace).toBe("/home/me/other/ws");
    expect((await resolveConfig({ workspace: "/abs//ws/" }, sources({}))).workspace).toBe("/abs/ws");
    const src = sources({ "/c.json": JSON.stringify({ workspace: "sub" }) });
    expect((await resolveConfig({ configPath: "/c.json" }, src)).workspace).toBe("/home/me/project/sub");
  });

  describe("a bad config file", () => {
    it("names a missing file", async () => {
      expect(await configError({ configPath: "/nope.json" }, sources({}))).toMatch(/^\/nope\.json: cannot read the config file: ENOENT/);
    });

    it("names bad JSON", async () => {
      expect(await configError({ configPath: "/x.json" }, sources({ "/x.json": "{port: 1" }))).toMatch(/^\/x\.json: not valid JSON: /);
    });

    it("names the key and the issue", async () => {
      const bad = (json: unknown) => configError({ configPath: "/x.json" }, sources({ "/x.json": JSON.stringify(json) }));
      expect(await bad({ port: "4000" })).toMatch(/^\/x\.json: port: Invalid type: Expected number/);
      expect(await bad({ timeout: 10 })).toBe("/x.json: timeout: Invalid value: Expected >=1000 but received 10");
      expect(await bad({ prot: 4000 })).toMatch(/^\/x\.json: prot: unknown key \(allowed: workspace, port, /);
      expect(await bad([1])).toBe('/x.json: the file must hold a JSON object, like {"port": 4000}');
      expect(await bad(null)).toBe('/x.json: the file must hold a JSON object, like {"port": 4000}');
    });

    it("is not hidden by a valid flag for the same key", async () => {
      const src = sources({ "/x.json": JSON.stringify({ port: -1 }) });
      expect(await configError({ configPath: "/x.json", port: 4000 }, src)).toMatch(/^\/x\.json: port: /);
    });
  });
});

describe("plugins in a config file", () => {
  it("resolves relative plugin directories against the file's directory, and leaves package names and flags alone", async () => {
    const file = { plugins: ["./plugins/a", "../shared/b", "c/d", "/opt/e", "pkg-name", "@scope/pkg"] };
    // The config path itself is relative: to the working directory, and the plugins to where it is.
    const config = await resolveConfig(
      { configPath: "conf/bridge.json" },
      sources({ "/home/me/project/conf/bridge.json": JSON.stringify(file) }),
    );
    expect(config.plugins).toEqual([
      "/home/me/project/conf/plugins/a",
      "/home/me/project/shared/b",
      "/home/me/project/conf/c/d",
      "/opt/e",
      "pkg-name",
      "@scope/pkg",
    ]);
    // A --plugin flag replaces the file's list and stays as typed: the loader starts it from the working directory.
    const flagged = await resolveConfig(
      cli(["--config", "/etc/b.json", "--plugin", "./mine"]),
      sources({ "/etc/b.json": JSON.stringify(file) }),
    );
    expect(flagged.plugins).toEqual(["./mine"]);
  });
});
