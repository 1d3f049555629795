// The package as users get it: what `npm pack` puts in it (bin, dist, the sources Bun
// and Deno run, LICENSE; no tests), the tarball installed into a temporary project and run the ways
// the README says: `npx claude-ide-bridge --version`, and the bridge answering /health under `npx
// claude-ide-bridge`, `bunx --bun claude-ide-bridge` and `deno run -A npm:claude-ide-bridge` (Deno
// resolves it from the project's node_modules); the shim under each launcher starting its own
// bridge; `init` writing the npx entry, which Claude Code then connects with; doctor finding the
// language servers the package ships answering, and its fix for one it does not ship working. And
// a checkout installed with `npm ci --omit=dev`, then `npm start`.
import { execFile, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, stopAll } from "../contract/process.ts";
import { BUN, DENO, executablePattern, type RuntimeName } from "../contract/runtimes.ts";
import { CLAUDE_CLIS, runClaude } from "../helpers/claude-clis.ts";
import { randomToken, REPO_ROOT } from "../helpers/spawn-bridge.ts";

const run = promisify(execFile);
const INSTALLED_BIN = () => join(consumer, "node_modules", "claude-ide-bridge", "bin", "claude-ide-bridge.js");
const INSTALL_TIMEOUT_MS = 180_000;
/** npm ci of the whole checkout and its build: over three minutes at load average 25 on two cores. */
const CHECKOUT_TIMEOUT_MS = 480_000;

let scratch: string;
let consumer: string;
let configDir: string;
let packed: string[];
/** PATH with bun and deno (devDependencies) on it, as a user who installed them has. */
let env: Record<string, string>;

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "package-e2e-")));
  consumer = join(scratch, "consumer");
  configDir = join(scratch, "config");
  await mkdir(consumer);
  env = {
    PATH: `${join(REPO_ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_PROJECT_DIR: "",
  };
  // What `npm publish` would upload (dist/ as built by `npm test`), installed as a registry install is.
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: REPO_ROOT });
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (info === undefined) throw new Error(`npm pack printed nothing: ${stdout}`);
  packed = info.files.map((f) => f.path);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(scratch, info.filename)], {
    cwd: consumer,
  });
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await stopAll();
  // Bridges a shim started (detached) in this test's config dir.
  for (const name of await readdir(join(configDir ?? "/nonexistent", "ide")).catch(() => [])) {
    const pid = /^\d+\.lock$/.test(name)
      ? (JSON.parse(await readFile(join(configDir, "ide", name), "utf8")) as { pid: number }).pid
      : undefined;
    if (pid !== undefined) process.kill(pid, "SIGKILL");
  }
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("ships bin, dist, the sources Bun and Deno run, README and LICENSE; no tests, benches or CI", async () => {
    for (const file of [
      "bin/claude-ide-bridge.js",
      "dist/runtime/main.js",
      // A plugin's worker starts on this file, beside the compiled runtime (scripts/bundle.mjs copies it).
      "dist/runtime/shared/plugin-worker.mjs",
      "dist/shim/main.js",
      "runtime/main.ts",
      "shim/main.ts",
      "src/bridge.ts",
      "deno.json",
      "README.md",
      "LICENSE",
      "package.json",
    ]) {
      expect(packed).toContain(file);
    }
    expect(packed.filter((f) => /(^|\/)(test|bench|\.ci)\/|\.test\.ts$/.test(f))).toEqual([]);
    // The Node bundle ships; a code cache made by this checkout's starts does not (another Node,
    // another machine: each install makes its own).
    expect(packed).toContain("dist/runtime/node-bundle.cjs");
    expect(packed.filter((f) => f.endsWith(".v8cache"))).toEqual([]);
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg).toMatchObject({ license: "MIT", bin: { "claude-ide-bridge": "bin/claude-ide-bridge.js" }, repository: { type: "git" } });
    expect(pkg.keywords).toEqual(expect.arrayContaining(["mcp", "claude-code"]));
    expect(await readFile(join(REPO_ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);
  });
});

describe("installed from the tarball", () => {
  it("npx claude-ide-bridge --version", async () => {
    const { stdout } = await run("npx", ["claude-ide-bridge", "--version"], { cwd: consumer, env: { ...process.env, ...env } });
    expect(stdout).toBe(`${(JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version}\n`);
  });

  const launchers: Array<[string, string[], RuntimeName]> = [
    ["npx claude-ide-bridge", ["npx", "claude-ide-bridge"], "node"],
    ["bunx --bun claude-ide-bridge", [BUN, "x", "--bun", "claude-ide-bridge"], "bun"],
    ["deno run -A npm:claude-ide-bridge", [DENO, "run", "-A", "npm:claude-ide-bridge"], "deno"],
  ];

  it.each(launchers)("`%s` serves /health, and the bridge runs on that runtime", async (_name, command, runtime) => {
    const token = randomToken();
    const [exe, ...args] = command as [string, ...string[]];
    const proc = await startProcess([exe, ...args, "--port", "0", "--fixed-token", token], {
      cwd: consumer,
      env,
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    const health = await fetch(`http://127.0.0.1:${proc.ready[1]}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(await health.json()).toMatchObject({ status: "ok", workspace: consumer });
    // The process behind the lock is the runtime the launcher names (bunx --bun does not fall back to node).
    const lock = JSON.parse(await readFile(join(configDir, "ide", `${proc.ready[1]}.lock`), "utf8")) as { pid: number };
    expect(await readlink(`/proc/${lock.pid}/exe`)).toMatch(executablePattern(runtime));
    // `stop` rather than a signal: npx does not pass SIGTERM on to the bridge it runs.
    const stop = await run(process.execPath, [INSTALLED_BIN(), "stop", "--port", String(proc.ready[1])], {
      cwd: consumer,
      env: { ...process.env, ...env },
    });
    expect(stop.stderr).toMatch(/stopped the bridge/);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  });

  it.each(launchers)("`%s shim` starts its own bridge and answers initialize through it", async (_name, command) => {
    const project = await realpath(await mkdtemp(join(consumer, "project-")));
    await writeFile(join(project, "package.json"), "{}");
    const [exe, ...args] = command as [string, ...string[]];
    const answer = await initializeThrough([exe, ...args, "shim"], project);
    expect(answer, answer).toMatch(/"serverInfo":\{"name":"claude-ide-bridge"/);
    const stop = await run(process.execPath, [INSTALLED_BIN(), "stop"], { cwd: project, env: { ...process.env, ...env } });
    expect(stop.stderr).toMatch(/stopped the bridge on port \d+/);
  });

  it("npx claude-ide-bridge init writes the npx entry, and Claude Code connects with it", async () => {
    const project = await realpath(await mkdtemp(join(consumer, "init-")));
    await writeFile(join(project, "package.json"), "{}");
    await run("npx", ["claude-ide-bridge", "init"], { cwd: project, env: { ...process.env, ...env } });
    const written = JSON.parse(await readFile(join(project, ".mcp.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    expect(written.mcpServers["claude-ide-bridge"]).toEqual({ type: "stdio", command: "npx", args: ["-y", "claude-ide-bridge", "shim"] });
    const config = await run("npx", ["claude-ide-bridge", "gen-mcp-config", "cursor"], { cwd: project, env: { ...process.env, ...env } });
    expect(JSON.parse(config.stdout)).toEqual({
      mcpServers: {
        "claude-ide-bridge": { command: "npx", args: ["-y", "claude-ide-bridge", "shim", "--workspace", "${workspaceFolder}"] },
      },
    });

    const home = join(scratch, "claude-home");
    await mkdir(join(home, ".claude"), { recursive: true });
    await writeFile(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    const [newest] = CLAUDE_CLIS;
    if (newest === undefined) throw new Error("no Claude Code CLI pinned");
    const list = await runClaude(newest, ["mcp", "list"], { cwd: project, home, env: { PATH: env.PATH ?? "" } });
    expect(list.out).toMatch(/claude-ide-bridge: npx -y claude-ide-bridge shim - ✔ Connected/);
    await run(process.execPath, [INSTALLED_BIN(), "stop"], { cwd: project, env: { ...process.env, PATH: env.PATH ?? "", HOME: home } });
    // Three npx runs and Claude Code starting the shim and a bridge through npx: 12.7 s on a quiet
    // machine, over 60 s at load 24.
  }, 90_000);
});

interface DoctorCheck {
  area: string;
  status: string;
  summary: string;
  fix?: string;
}

it(
  "doctor: the language servers the package ships answer initialize, and its fix for one it does not ship makes that one answer",
  async () => {
    const project = await realpath(await mkdtemp(join(consumer, "servers-")));
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "servers", private: true }));
    await writeFile(join(project, "a.ts"), "export const x: number = 1;\n");
    await writeFile(join(project, "a.py"), "x = 1\n");
    await writeFile(join(project, "a.sh"), "echo hi\n");
    // The machine's PATH, not the checkout's node_modules/.bin: only what the tarball brought counts.
    // (npx and npm run put every node_modules/.bin above the test on PATH.)
    const machinePath = (process.env.PATH ?? "")
      .split(":")
      .filter((dir) => !dir.endsWith("/node_modules/.bin"))
      .join(":");
    const doctorEnv = { ...process.env, PATH: machinePath, CLAUDE_CONFIG_DIR: configDir };
    const doctor = async (): Promise<DoctorCheck[]> => {
      // Exit 1 (no Claude Code config here) rejects; the report is on stdout either way.
      const out = await run(process.execPath, [INSTALLED_BIN(), "doctor", "--json"], { cwd: project, env: doctorEnv }).catch(
        (err: { stdout?: string; stderr?: string; message: string }) => ({
          stdout: err.stdout ?? "",
          stderr: `${err.message}\n${err.stderr}`,
        }),
      );
      if (!out.stdout.startsWith("{")) throw new Error(`doctor --json printed no report (${JSON.stringify(out.stdout)}): ${out.stderr}`);
      return (JSON.parse(out.stdout) as { checks: DoctorCheck[] }).checks;
    };
    const server = (checks: DoctorCheck[], id: string) => checks.find((c) => c.area === "language server" && c.summary.startsWith(id));
    const before = await doctor();
    for (const id of ["tsgo answers", "typescript-language-server answers", "pyright answers"]) {
      expect(server(before, id), JSON.stringify(before, null, 2)).toMatchObject({
        status: "ok",
        summary: expect.stringContaining(`(bundled: ${join(consumer, "node_modules")}`),
      });
    }
    const bash = server(before, "bash-language-server");
    expect(bash).toMatchObject({ status: "info", fix: `npm i -D bash-language-server   (in ${project})` });

    // The fix as doctor gave it, pinned to the version the checkout tests so it is in npm's cache.
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const version = pkg.devDependencies["bash-language-server"];
    await run("npm", ["i", "-D", `bash-language-server@${version}`, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project });
    // Doctor starts the servers of the languages it finds: with the TypeScript and Python files gone
    // it starts bash's alone, instead of three servers again whose answers were checked above.
    await rm(join(project, "a.ts"));
    await rm(join(project, "a.py"));
    const after = await doctor();
    expect(server(after, "pyright"), JSON.stringify(after, null, 2)).toMatchObject({ status: "info" });
    expect(server(after, "bash-language-server")).toMatchObject({
      status: "ok",
      summary: expect.stringMatching(/^bash-language-server answers initialize in \d+ ms .*\(workspace: /),
    });
  },
  INSTALL_TIMEOUT_MS,
);

it(
  "a checkout installed with npm ci --omit=dev builds, and npm start serves /health",
  async () => {
    const checkout = join(scratch, "checkout");
    const { stdout } = await run("git", ["ls-files", "-z"], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    const files = stdout.split("\0").filter((f) => f !== "");
    // Each folder made once and the files copied together (copyFile keeps the mode): a mkdir and a
    // cp per file, one after another, took 1.6 CPU-s for 1,459 files against 0.5-1.1 s.
    for (const dir of new Set(files.map((f) => dirname(f)))) await mkdir(join(checkout, dir), { recursive: true });
    await Promise.all(files.map((f) => copyFile(join(REPO_ROOT, f), join(checkout, f))));
    await run("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: checkout, maxBuffer: 16 * 1024 * 1024 });
    const token = randomToken();
    const proc = await startProcess(["npm", "start", "--", "--port", "0", "--fixed-token", token], {
      cwd: checkout,
      env,
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    const health = await fetch(`http://127.0.0.1:${proc.ready[1]}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(health.status).toBe(200);
    await proc.stop();
  },
  CHECKOUT_TIMEOUT_MS,
);

/** Runs a shim command in `cwd`, sends initialize, resolves with the first line it answers. */
function initializeThrough(command: string[], cwd: string): Promise<string> {
  const [exe, ...args] = command as [string, ...string[]];
  const child = spawn(exe, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "package-e2e", version: "0" } } })}\n`,
  );
  return new Promise((resolve) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) {
        child.stdin.end();
        resolve(out.split("\n")[0] ?? "");
      }
    });
    child.once("exit", () => resolve(`${out}\n--- shim stderr ---\n${stderr}`));
  });
}
