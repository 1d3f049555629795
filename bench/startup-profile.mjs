// Where a bridge's start-up goes: the real bridge (bin/claude-ide-bridge.js, dist/) started RUNS
// times under `node --cpu-prof`, each timed from spawn to its first /health 200, then stopped; the
// samples of that span summed by origin (Node's own modules, each package, each bundle chunk, V8's
// compiler as "(program)", the garbage collector) and by function, median run shown. With `shim`,
// the same for the stdio shim: spawn to its answer to `initialize` with its bridge already running
// (the shim's own part of a cold start).
// Usage: npm run build && node bench/startup-profile.mjs [bridge|shim] [runs=5]
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { monotonicMicros, printTop, readProfile, selfTimes } from "./cpu-profile.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(REPO, "bin/claude-ide-bridge.js");
const what = process.argv[2] ?? "bridge";
const runs = Number(process.argv[3] ?? 5);
const token = "bench-token-0123456789abcdef";
const home = mkdtempSync(join(tmpdir(), "bench-startup-prof-"));
// TMPDIR inside: the bridges the shims start write their logs there, removed with the rest.
const env = { ...process.env, CLAUDE_CONFIG_DIR: join(home, "cfg"), CLAUDE_PROJECT_DIR: "", TMPDIR: home };

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawn under --cpu-prof -> `ready` resolves; returns the milliseconds and the profile's directory. */
async function profiled(args, cwd, ready) {
  const dir = mkdtempSync(join(home, "prof-"));
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, ...args], { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    await ready(child);
    return { ms: performance.now() - t0, readyAt: monotonicMicros(), dir };
  } finally {
    // SIGTERM: the bridge and the shim exit through their shutdown, and Node writes the profile.
    child.kill("SIGTERM");
    await exited;
  }
}

async function bridgeRun() {
  const port = await freePort();
  return profiled([BIN, "--workspace", REPO, "--port", String(port), "--fixed-token", token], REPO, async () => {
    const started = performance.now();
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      if (performance.now() - started > 30_000) throw new Error("no /health 200 within 30 s");
      await new Promise((r) => setTimeout(r, 2));
    }
  });
}

const INIT = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
})}\n`;

function shimRun(project) {
  return profiled([BIN, "shim"], project, (child) => {
    child.stdin.write(INIT);
    return new Promise((resolve, reject) => {
      child.stdout.once("data", (d) => (String(d).includes('"result"') ? resolve() : reject(new Error(String(d)))));
    });
  });
}

/**
 * The bundle's self time by the chunk each function came from, named after its largest modules:
 * each chunk is one `__define("chunk-X.js", ...)` in dist/runtime/node-{bundle,shim}[-partN].cjs,
 * and scripts/bundle.mjs lists each chunk's modules in node-{bundle,shim}.modules.json.
 */
function byBundledModule(byFunction) {
  const dir = join(REPO, "dist/runtime");
  const files = new Map();
  const chunkAt = (file, line) => {
    if (!files.has(file)) {
      const heads = [];
      if (existsSync(join(dir, file)))
        readFileSync(join(dir, file), "latin1")
          .split("\n")
          .forEach((text, i) => {
            const head = /^__define\("([^"]+)"/.exec(text);
            if (head) heads.push([i + 1, head[1]]);
          });
      const list = join(dir, `${file.replace(/(-part\d+)?\.cjs$/, "")}.modules.json`);
      files.set(file, { heads, modules: existsSync(list) ? JSON.parse(readFileSync(list, "utf8")) : {} });
    }
    const { heads, modules } = files.get(file);
    const chunk = heads.findLast(([start]) => start <= line)?.[1];
    if (chunk === undefined) return `${file} (the loader)`;
    const inside = modules[chunk] ?? [];
    const named = inside.slice(0, 2).map(([path]) => path.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, "package $1"));
    return `${chunk}: ${named.join(", ")}${inside.length > 2 ? ` and ${inside.length - 2} more` : ""}`;
  };
  const sums = new Map();
  for (const [key, ms] of byFunction) {
    const at = /dist\/runtime\/(node-(?:bundle|shim)(?:-part\d+)?\.cjs):(\d+)$/.exec(key);
    if (!at) continue;
    const where = chunkAt(at[1], Number(at[2]));
    sums.set(where, (sums.get(where) ?? 0) + ms);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

const results = [];
try {
  let project;
  if (what === "shim") {
    project = join(home, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), "{}");
    // The project's bridge, started by a first shim and left running for the profiled ones.
    rmSync((await shimRun(project)).dir, { recursive: true });
  }
  for (let i = 0; i < runs; i++) results.push(what === "shim" ? await shimRun(project) : await bridgeRun());
  if (what === "shim") spawnSync(process.execPath, [BIN, "stop"], { cwd: project, env });
  results.sort((a, b) => a.ms - b.ms);
  const mid = results[Math.floor(results.length / 2)];
  const { path, profile } = await readProfile(mid.dir);
  const times = selfTimes(profile, { repo: REPO, untilMicros: mid.readyAt });
  const r1 = (x) => Math.round(x * 10) / 10;
  console.log(
    `${what}: spawn -> ${what === "shim" ? "initialize answered" : "first /health 200"}, ${runs} runs: ${results.map((r) => r1(r.ms)).join(", ")} ms`,
  );
  console.log(`median run: ${r1(mid.ms)} ms; its profile up to the answer: ${r1(times.totalMs)} ms sampled, ${r1(times.idleMs)} idle`);
  printTop("self time by origin:", times.byOrigin, 15);
  printTop("self time in the Node bundle, by the chunk bundled there (top 20):", byBundledModule(times.byFunction), 20);
  printTop("self time by function (top 25):", times.byFunction, 25);
  const kept = join(tmpdir(), `startup-${what}-${process.pid}.cpuprofile`);
  copyFileSync(path, kept);
  console.log(`profile (the median run's, kept): ${kept}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
