// Every documented way to start the bridge (README, "Runtimes") is the same CLI: same --help,
// --version and usage errors on node, bun and deno; `npm run typecheck` checks Deno's entry points too.
// The package as npm packs it, run by each runtime, is test/e2e/package.test.ts's (one pack and
// install for both).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readlink, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIDGE_BIN, randomToken, REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll } from "./process.ts";
import { assertRuntimesInstalled, BUN, bridgeCommand, DENO, executablePattern, type RuntimeName } from "./runtimes.ts";

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function outcome(command: [string, ...string[]], args: string[], cwd = REPO_ROOT): Promise<Outcome> {
  const [exe, ...pre] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(exe, [...pre, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Every entry point: the runtime entries, runtime/main.ts and the npm bin, run by each runtime from a checkout. */
const ENTRIES: Array<[string, RuntimeName, [string, ...string[]]]> = [
  ["node bin/claude-ide-bridge.js", "node", bridgeCommand("node")],
  ["bun run runtime/bun.ts", "bun", bridgeCommand("bun")],
  ["deno run -A runtime/deno.ts", "deno", bridgeCommand("deno")],
  ["bun run runtime/main.ts", "bun", [BUN, "run", join(REPO_ROOT, "runtime", "main.ts")]],
  ["deno run -A runtime/main.ts", "deno", [DENO, "run", "-A", join(REPO_ROOT, "runtime", "main.ts")]],
  ["bun bin/claude-ide-bridge.js", "bun", [BUN, BRIDGE_BIN]],
  ["deno run -A bin/claude-ide-bridge.js", "deno", [DENO, "run", "-A", BRIDGE_BIN]],
];

describe("one CLI on every entry point", () => {
  let reference: { help: Outcome; version: Outcome; bad: Outcome };

  beforeAll(async () => {
    const node = bridgeCommand("node");
    reference = {
      help: await outcome(node, ["--help"]),
      version: await outcome(node, ["--version"]),
      bad: await outcome(node, ["--bogus"]),
    };
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(reference.version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    expect(reference.help.code).toBe(0);
    expect(reference.help.stdout).toContain("--workspace");
    expect(reference.bad.code).toBe(2);
  });

  it.each(ENTRIES)("%s: the same --help, --version and usage error as Node's", async (_name, _runtime, command) => {
    expect(await outcome(command, ["--help"])).toEqual(reference.help);
    expect(await outcome(command, ["--version"])).toEqual(reference.version);
    expect(await outcome(command, ["--bogus"])).toEqual(reference.bad);
  });

  it.each(ENTRIES)("%s: serves on %s and removes its lock on SIGTERM", async (_name, runtime, command) => {
    await expectBridgeOn(runtime, command, REPO_ROOT);
  });
});

/** Starts the bridge with `command`, checks /health and the runtime behind the lock's pid, stops it. */
async function expectBridgeOn(runtime: RuntimeName, command: [string, ...string[]], cwd: string): Promise<void> {
  const configDir = await realpath(await mkdtemp(join(tmpdir(), "contract-cfg-")));
  try {
    const token = randomToken();
    const proc = await startProcess([...command, "--port", "0", "--fixed-token", token], {
      cwd,
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
      env: { CLAUDE_CONFIG_DIR: configDir },
    });
    const port = Number(proc.ready[1]);
    const health = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", workspace: cwd.replace(/\/$/, "") });
    const lockPath = join(configDir, "ide", `${port}.lock`);
    const lock = JSON.parse(await readFile(lockPath, "utf8")) as { pid: number };
    expect(await readlink(`/proc/${lock.pid}/exe`)).toMatch(executablePattern(runtime));
    expect(await proc.stop()).toEqual({ code: 0, signal: null });
    expect(existsSync(lockPath)).toBe(false);
  } finally {
    await rm(configDir, { recursive: true, force: true });
  }
}

describe("type checks", () => {
  it("keeps Bun's and Deno's files out of the Node typecheck, and each in its own", async () => {
    const node = JSON.parse(await readFile(join(REPO_ROOT, "tsconfig.json"), "utf8")) as {
      include: string[];
      compilerOptions: { types: string[] };
    };
    const bunConfig = JSON.parse(await readFile(join(REPO_ROOT, "tsconfig.bun.json"), "utf8")) as {
      include: string[];
      compilerOptions: { types: string[] };
    };
    expect(node.compilerOptions.types).toEqual(["node"]);
    for (const entry of node.include) expect(entry).not.toMatch(/bun|deno/);
    expect(bunConfig.compilerOptions.types).toEqual(["bun"]);
    expect(bunConfig.include).toEqual(expect.arrayContaining(["runtime/bun.ts"]));
    const scripts = (JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    // `npm run typecheck` runs scripts/typecheck.mjs, which runs the four checks at once: Deno's is
    // `deno check` on its entry points, offline (it runs beside the tests in `npm test`: a whole
    // type check of the sources from an empty cache takes about 40 s of one core).
    expect(scripts.typecheck).toBe("node scripts/typecheck.mjs");
    const typecheck = await readFile(join(REPO_ROOT, "scripts", "typecheck.mjs"), "utf8");
    expect(typecheck).toMatch(/"tsconfig\.bun\.json"/);
    expect(typecheck).toMatch(/"runtime\/deno\.ts", "runtime\/main\.ts", "bin\/claude-ide-bridge\.js"/);
    expect(typecheck).toMatch(/"check", "--quiet", "--cached-only"/);
  });
});
