import { describe, expect, it } from "vitest";
import { HELP_TEXT, parseCli, type CliFlags } from "../../../src/config/cli.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { BridgeError } from "../../../src/errors.ts";

function flags(argv: string[]): CliFlags {
  const result = parseCli(argv);
  if (result.kind !== "run") throw new Error(`expected run, got ${result.kind}`);
  return result.flags;
}

function usageError(argv: string[]): string {
  try {
    parseCli(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(BridgeError);
    if (err instanceof BridgeError) {
      expect(err.code).toBe("usage");
      return err.message;
    }
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
}

const TOKEN = "abcdefghijklmnop-0123456789";

const valueFlags: Array<[string, string, Partial<CliFlags>]> = [
  ["--workspace", "/tmp/ws", { workspace: "/tmp/ws" }],
  ["--port", "0", { port: 0 }],
  ["--port", "1024", { port: 1024 }],
  ["--port", "65535", { port: 65535 }],
  ["--bind", "0.0.0.0", { bind: "0.0.0.0" }],
  ["--ide-name", "My IDE", { ideName: "My IDE" }],
  ["--fixed-token", TOKEN, { fixedToken: TOKEN }],
  ["--timeout", "1000", { timeout: 1000 }],
  ["--timeout", "600000", { timeout: 600000 }],
  ["--max-result-size", "4096", { maxResultSize: 4096 }],
  ["--grace-period", "5000", { gracePeriod: 5000 }],
  ["--tool-rate-limit", "10000", { toolRateLimit: 10000 }],
  ["--request-rate-limit", "5000", { requestRateLimit: 5000 }],
  ["--max-sessions", "50", { maxSessions: 50 }],
  ["--max-sessions", "1000", { maxSessions: 1000 }],
  ["--max-ws-sessions", "1", { maxWsSessions: 1 }],
  ["--max-ws-sessions", "1000", { maxWsSessions: 1000 }],
  ["--automation-concurrency", "1", { automationConcurrency: 1 }],
  ["--automation-concurrency", "8", { automationConcurrency: 8 }],
  ["--config", "./bridge.json", { configPath: "./bridge.json" }],
];

describe("parseCli", () => {
  it("returns run with no flags for an empty argv", () => {
    expect(parseCli([])).toEqual({ kind: "run", flags: {} });
  });

  it.each(valueFlags)("accepts %s %s in both forms", (flag, value, expected) => {
    expect(flags([flag, value])).toEqual(expected);
    expect(flags([`${flag}=${value}`])).toEqual(expected);
  });

  it.each([
    ["--slim", { slim: true }],
    ["--verbose", { verbose: true }],
    ["--jsonl", { jsonl: true }],
    ["--allow-push-to-main", { allowPushToMain: true }],
    ["--allow-git-dir-writes", { allowGitDirWrites: true }],
    ["--allow-git-hooks", { allowGitHooks: true }],
  ])("accepts the boolean %s", (flag, expected) => {
    expect(flags([flag])).toEqual(expected);
  });

  it("combines flags, the last one of a kind winning", () => {
    expect(flags(["--slim", "--port", "4000", "--verbose", "--port=5000", "--workspace", "a b"])).toEqual({
      slim: true,
      verbose: true,
      port: 5000,
      workspace: "a b",
    });
  });

  it("keeps '=' inside a value", () => {
    expect(flags(["--ide-name=a=b"])).toEqual({ ideName: "a=b" });
  });

  it.each([["--help"], ["-h"]])("%s asks for help, even after a bad flag", (flag) => {
    expect(parseCli([flag])).toEqual({ kind: "help" });
    expect(parseCli(["--nope", flag])).toEqual({ kind: "help" });
  });

  it.each([["--version"], ["-v"]])("%s asks for the version", (flag) => {
    expect(parseCli([flag])).toEqual({ kind: "version" });
    expect(parseCli(["--port", "1", flag])).toEqual({ kind: "version" });
  });

  describe("errors", () => {
    it("refuses unknown flags and positional arguments", () => {
      expect(usageError(["--nope"])).toBe("unknown option --nope");
      expect(usageError(["--nope=1"])).toBe("unknown option --nope");
      expect(usageError(["-x"])).toBe("unknown option -x");
      expect(usageError(["serve"])).toBe('unexpected argument "serve"');
    });

    it.each(valueFlags.map(([flag]) => [flag]))("%s without a value", (flag) => {
      expect(usageError([flag])).toBe(`${flag} needs a value`);
      expect(usageError([flag, "--slim"])).toBe(`${flag} needs a value`);
    });

    it("refuses a value on a boolean flag", () => {
      expect(usageError(["--slim=true"])).toBe("--slim takes no value");
    });

    it.each([
      ["--port", "abc", '--port must be an integer (0 (any free port) or 1024-65535), got "abc"'],
      ["--port", "80", "--port must be 0 (any free port) or 1024-65535, got 80"],
      ["--port", "65536", "--port must be 0 (any free port) or 1024-65535, got 65536"],
      ["--port", "-1", "--port must be 0 (any free port) or 1024-65535, got -1"],
      ["--timeout", "999", "--timeout must be 1000-600000, got 999"],
      ["--timeout", "1.5", '--timeout must be an integer (1000-600000), got "1.5"'],
      ["--timeout", "", '--timeout must be an integer (1000-600000), got ""'],
      ["--max-result-size", "0", "--max-result-size must be 1-4096, got 0"],
      ["--max-result-size", "4097", "--max-result-size must be 1-4096, got 4097"],
      ["--grace-period", "4999", "--grace-period must be 5000-600000, got 4999"],
      ["--grace-period", "600001", "--grace-period must be 5000-600000, got 600001"],
      ["--tool-rate-limit", "0", "--tool-rate-limit must be 1-10000, got 0"],
      ["--max-sessions", "1001", "--max-sessions must be 1-1000, got 1001"],
      ["--max-ws-sessions", "0", "--max-ws-sessions must be 1-1000, got 0"],
      ["--max-ws-sessions", "1001", "--max-ws-sessions must be 1-1000, got 1001"],
      ["--request-rate-limit", "0", "--request-rate-limit must be 1-100000, got 0"],
      ["--tool-rate-limit", "1e3", '--tool-rate-limit must be an integer (1-10000), got "1e3"'],
      ["--automation-concurrency", "0", "--automation-concurrency must be 1-8, got 0"],
      ["--automation-concurrency", "9", "--automation-concurrency must be 1-8, got 9"],
    ])("%s %s is refused", (flag, value, message) => {
      expect(usageError([`${flag}=${value}`])).toBe(message);
    });

    it("refuses bad strings", () => {
      expect(usageError(["--fixed-token", "short"])).toBe("--fixed-token is invalid: must be 16-500 visible ASCII characters, no spaces");
      expect(usageError(["--fixed-token", "has a space in it ok"])).toMatch(/^--fixed-token is invalid/);
      expect(usageError(["--ide-name", "x".repeat(101)])).toMatch(/^--ide-name is invalid: .*100/);
      expect(usageError(["--workspace="])).toBe("--workspace needs a non-empty value");
      expect(usageError(["--bind="])).toBe("--bind needs a non-empty value");
      expect(usageError(["--config="])).toBe("--config needs a file path");
    });
  });
});

describe("HELP_TEXT", () => {
  it("lists every flag with its default", () => {
    for (const flag of [
      "--workspace",
      "--port",
      "--bind",
      "--ide-name",
      "--fixed-token",
      "--slim",
      "--toolsets",
      "--exclude-toolsets",
      "--profile",
      "--verbose",
      "--jsonl",
      "--timeout",
      "--max-result-size",
      "--grace-period",
      "--tool-rate-limit",
      "--max-sessions",
      "--max-ws-sessions",
      "--allow-push-to-main",
      "--config",
      "--version",
      "--help",
    ]) {
      expect(HELP_TEXT).toContain(flag);
    }
    expect(HELP_TEXT).toContain("default: 127.0.0.1");
    expect(HELP_TEXT).toContain("default: 30000");
    expect(HELP_TEXT).toContain("default: 512");
    expect(HELP_TEXT).toContain("default: 120000");
    expect(HELP_TEXT).toContain("default: 60");
    expect(HELP_TEXT).toContain(`default: ${DEFAULT_CONFIG.maxSessions}; 1-1000`);
    expect(HELP_TEXT).toContain(`default: ${DEFAULT_CONFIG.maxWsSessions}; 1-1000`);
  });
});

describe("toolset selection flags", () => {
  it("take comma-separated toolset names, repeatable, with or without spaces", () => {
    expect(flags(["--toolsets", "git,code-navigation", "--toolsets=edit"])).toEqual({ toolsets: ["git", "code-navigation", "edit"] });
    expect(flags(["--exclude-toolsets", "github, notes"])).toEqual({ excludeToolsets: ["github", "notes"] });
    expect(flags(["--profile", "windsurf"])).toEqual({ profile: "windsurf" });
  });

  it("refuse what is not a toolset name or a profile", () => {
    expect(usageError(["--toolsets", "git,,lsp"])).toBe('--toolsets takes comma-separated toolset names, got "git,,lsp"');
    expect(usageError(["--exclude-toolsets", "Git"])).toBe('--exclude-toolsets takes comma-separated toolset names, got "Git"');
    expect(usageError(["--profile", "cursor"])).toBe('--profile must be vscode or windsurf, got "cursor"');
    expect(usageError(["--toolsets"])).toBe("--toolsets needs a value");
  });
});
