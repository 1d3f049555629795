// The shim starts on every Claude Code session, so what it loads is kept small (DESIGN.md, "Start-up
// cost is a feature"): this runs the real `node bin/claude-ide-bridge.js shim` with a module hook
// that records every file it loads (ES modules through the resolve hook, CommonJS through the
// require cache at exit), and pins the list. valibot, hono and the bridge's runtime adapter must
// not be in it; the shim reads lock files with src/lock/lock-parse-plain.ts for that reason. On Node
// the bin runs the shim's bundle (scripts/bundle.mjs), whose start part lists its modules on its
// first lines: those are pinned, and nothing but the bin comes through a module loader.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BRIDGE_BIN, REPO_ROOT } from "../helpers/spawn-bridge.ts";

const HOOKS = `import { writeSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) writeSync(2, "LOADED " + result.url + "\\n");
  return result;
}`;
const RECORDER = `import { register, createRequire } from "node:module";
import { writeSync } from "node:fs";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});
const cache = createRequire("/").cache;
process.on("exit", () => { for (const file of Object.keys(cache)) writeSync(2, "LOADED " + file + "\\n"); });`;

let scratch: string;
beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "shim-graph-")));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * Every file the shim loads from start to exit (stdin closed at once, so it exits right away).
 * --no-spawn: a bridge started by it would inherit the recording hook (execArgv) and linger.
 */
async function loadedFiles(): Promise<string[]> {
  const proc = spawn(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(RECORDER)}`, BRIDGE_BIN, "shim", "--no-spawn"],
    {
      cwd: scratch,
      env: { ...process.env, CLAUDE_CONFIG_DIR: join(scratch, "config") },
      stdio: ["pipe", "ignore", "pipe"],
    },
  );
  let stderr = "";
  proc.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  proc.stdin.end();
  await new Promise((resolve) => proc.once("exit", resolve));
  const files = [...stderr.matchAll(/^LOADED (.+)$/gm)].map((m) => {
    const raw = m[1] ?? "";
    return relative(REPO_ROOT, raw.startsWith("file:") ? fileURLToPath(raw) : raw)
      .split("\\")
      .join("/");
  });
  return [...new Set(files)].sort();
}

/** The modules in the start part of the shim's bundle, as its head lists them. */
async function bundledModules(): Promise<string[]> {
  const text = await readFile(join(REPO_ROOT, "dist/runtime/node-shim.cjs"), "latin1");
  return [...text.slice(0, 20_000).matchAll(/^\/\/ module (\S+)$/gm)].map((m) => m[1] ?? "");
}

it("the shim loads its own files, the lock rules, wire constants and byte/id helpers it shares: nothing else", async () => {
  const files = await loadedFiles();
  const packages = [...new Set(files.filter((f) => f.startsWith("node_modules/")).map((f) => f.split("/")[1]))];
  // ws loads when there is a bridge to connect to (or one being started), never before.
  expect(packages).toEqual([]);
  // The rest is the bundle's start part, which the bin reads and compiles itself.
  expect(files).toEqual(["bin/claude-ide-bridge.js"]);
  expect(await bundledModules()).toEqual([
    "dist/shim/bridge-link.js",
    "dist/shim/connector.js",
    "dist/shim/discovery.js",
    "dist/shim/early-initialize.js",
    "dist/shim/json-values.js",
    "dist/shim/line-splitter.js",
    "dist/shim/log.js",
    "dist/shim/main.js",
    "dist/shim/messages.js",
    "dist/shim/no-bridge-error.js",
    "dist/shim/options.js",
    "dist/shim/process-alive.js",
    "dist/shim/project-root.js",
    "dist/shim/relay.js",
    "dist/shim/spawn-bridge.js",
    "dist/src/cli/launcher.js",
    "dist/src/cli/project-root.js",
    "dist/src/lib/paths/posix-path.js",
    "dist/src/lib/text/bytes.js",
    "dist/src/lock/lock-dir.js",
    "dist/src/lock/lock-fields.js",
    "dist/src/lock/lock-liveness.js",
    "dist/src/lock/lock-parse-plain.js",
    "dist/src/lock/lock-selection.js",
    "dist/src/mcp/protocol/id-token.js",
    "dist/src/version.js",
    "dist/src/wire.js",
  ]);
});
