// Git tools through the bridge vs the same git commands run straight, in one run, on a generated
// repository (git fast-import) shaped like a real one: COMMITS commits over about three years, each
// changing one to four of FILES files (some lines edited, some added), src/app.ts's functions edited
// every 20th commit, 50 branches and a dirty working tree:
//  - each tool called over MCP (Streamable HTTP, the real bridge process) and the git command(s) a
//    person would type for the same answer (execFile, no shell, the same options) take turns, call
//    by call, so the machine's noise hits both alike; medians of RUNS after WARMUP of each. The
//    bridge runs its repository lookup and config read, then the command, then renders the answer;
//  - the floor: a tool that does no I/O (getWorkspaceFolders) through the same client.
// Usage: npm run build && node bench/git.mjs
//   BENCH_GIT_COMMITS (20000), BENCH_GIT_RUNS (30), BENCH_GIT_TOOLS=getGitHotspots,getSymbolHistory
//   for a subset; BENCH_JSON=1 adds a JSON line of rows for bench/all.mjs (the tools measured, with
//   the target: at most 1.5x the command).
import { execFile, execFileSync } from "node:child_process";
import { appendFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { register } from "tsx/esm/api";
import { median } from "./timing.mjs";

register();
const { stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { benchBridge, checkedCall } = await import("./mcp-bridge.mjs");

const RUNS = Number(process.env.BENCH_GIT_RUNS ?? 30);
const WARMUP = 5;
const COMMITS = Number(process.env.BENCH_GIT_COMMITS ?? 20_000);
const FILES = Math.max(20, Math.round(COMMITS / 10));
const ONLY = process.env.BENCH_GIT_TOOLS?.split(",");
const run = promisify(execFile);

/** Milliseconds one call of `fn` took. */
async function timeOf(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The same pseudo-random sequence on every run, so every run measures the same repository. */
function sequence(seed) {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

/** A source file of `lines` lines, as a list so commits can edit lines in place. */
const sourceLines = (file, lines) => Array.from({ length: lines }, (_, i) => `  const value${i} = compute("${file}", ${i}); // line ${i}`);

/** src/app.ts: three functions git's default function rule finds (lines starting with a letter). */
function appSource(version) {
  const body = (name, v) => [
    `export function ${name}(n: number): number {`,
    `  const base = n * ${v + 1};`,
    `  return base + ${v};`,
    "}",
    "",
  ];
  return [...body("handle", version.handle), ...body("parse", version.parse), ...body("render", version.render)].join("\n");
}

/**
 * COMMITS commits over three years up to now, each editing and growing one to four of FILES files
 * under src/m<k>/, every 20th one editing one of src/app.ts's functions (handle every 60th).
 */
async function bigRepository() {
  const root = await realpath(await mkdtemp(join(tmpdir(), "bench-git-")));
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", root]);
  const span = 3 * 365 * 86_400;
  const start = Math.floor(Date.now() / 1000) - span;
  const random = sequence(42);
  const files = new Map();
  const app = { handle: 0, parse: 0, render: 0 };
  const chunks = [];
  const inline = (path, text) => `M 644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 1; i <= COMMITS; i++) {
    const changes = [];
    if (i % 20 === 0) {
      app[i % 60 === 0 ? "handle" : i % 40 === 0 ? "parse" : "render"] = i;
      changes.push(inline("src/app.ts", appSource(app)));
    } else {
      for (let f = 1 + random(4); f > 0; f--) {
        const k = random(FILES);
        const path = `src/m${k % 40}/f${k}.ts`;
        const lines = files.get(path) ?? sourceLines(path, 10 + random(60));
        for (let e = 1 + random(3); e > 0; e--) lines[random(lines.length)] = `  const edited${i}_${e} = ${random(1000)}; // commit ${i}`;
        for (let n = random(6); n > 0; n--) lines.push(`  const added${i}_${n} = ${random(1000)};`);
        files.set(path, lines);
        changes.push(inline(path, `${lines.join("\n")}\n`));
      }
    }
    const message = `change ${i}: ${changes.length} file(s)`;
    const author = `Dev ${random(12)} <dev${random(12)}@example.com> ${start + Math.floor((i * span) / COMMITS)} +0000`;
    chunks.push(
      `commit refs/heads/main\nauthor ${author}\ncommitter ${author}\ndata ${Buffer.byteLength(message)}\n${message}\n${changes.join("")}\n`,
    );
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: chunks.join(""), maxBuffer: 1 << 28 });
  execFileSync("git", ["reset", "--quiet", "--hard", "main"], { cwd: root });
  for (let b = 0; b < 50; b++) execFileSync("git", ["branch", `topic/${b}`, `main~${b * 10}`], { cwd: root });
  // A working tree with some of everything: modified, staged, untracked.
  const tracked = [...files.keys()].slice(0, 20);
  for (const path of tracked) await appendFile(join(root, path), "local edit\n");
  if (tracked[0] !== undefined) execFileSync("git", ["add", tracked[0]], { cwd: root });
  await writeFile(join(root, "notes.md"), "new\n");
  return root;
}

async function bridgeClient(root) {
  const bridge = await benchBridge(root, { name: "bench-git", timeoutMs: 120_000 });
  return { call: (name, args) => checkedCall(bridge, name, args), stop: bridge.stop };
}

const root = await bigRepository();
const git = (...args) => run("git", args, { cwd: root, maxBuffer: 1 << 28 });
/** tool, its arguments, and the raw git command(s) giving the same answer. */
const CASES = [
  ["getGitStatus", {}, () => git("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")],
  ["getGitDiff", {}, () => git("diff", "--no-ext-diff", "--no-textconv", "--relative", "--", ".")],
  [
    "getGitLog",
    { limit: 30 },
    () => git("log", "--abbrev=10", "--date=short", "--format=%h%x1f%ad%x1f%an%x1f%s%x1e", "--max-count=31", "HEAD"),
  ],
  [
    "getGitLog",
    { paths: ["src/app.ts"], limit: 30 },
    () => git("log", "--abbrev=10", "--date=short", "--format=%h%x1f%ad%x1f%an%x1f%s%x1e", "--max-count=31", "HEAD", "--", "src/app.ts"),
  ],
  [
    "getCommitDetails",
    { ref: "HEAD~5" },
    () => git("show", "--no-ext-diff", "--no-textconv", "--format=fuller", "--stat=200", "--patch", "HEAD~5"),
  ],
  [
    "getDiffBetweenRefs",
    { base: "topic/49", stat: true },
    () => git("diff", "--no-ext-diff", "--no-textconv", "--stat=200", "--summary", "topic/49..HEAD"),
  ],
  ["gitBlame", { path: "src/app.ts" }, () => git("blame", "--no-textconv", "--date=short", "--abbrev=9", "--", "src/app.ts")],
  [
    "getSymbolHistory",
    { path: "src/app.ts", symbol: "handle", limit: 10 },
    () =>
      git(
        "log",
        "--no-ext-diff",
        "--no-textconv",
        "--format=commit %h %ad %an%n%s",
        "--date=short",
        "--abbrev=10",
        "--max-count=10",
        "-L:handle:src/app.ts",
      ),
  ],
  [
    "getGitHotspots",
    { days: 3650 },
    () =>
      git(
        "log",
        "--since=3650.days.ago",
        "--max-count=5000",
        "--no-merges",
        "--no-renames",
        "--numstat",
        "--format=%x1e",
        "-z",
        "--relative",
        "--",
        ".",
      ),
  ],
  [
    "gitListBranches",
    {},
    () =>
      git(
        "for-each-ref",
        "--sort=-committerdate",
        "--format=%(HEAD)%1f%(refname)%1f%(objectname:short=10)%1f%(upstream:short)%1f%(upstream:track,nobracket)%1f%(committerdate:short)%1f%(contents:subject)%1e",
        "refs/heads",
      ),
  ],
];

/** How the table names a tool's baseline command. */
const COMMAND_NAMES = { getGitHotspots: "git log --numstat", getSymbolHistory: "git log -L" };
const cases = CASES.filter(([tool]) => ONLY === undefined || ONLY.includes(tool));
const rows = [];
let floor;
let bridge;
try {
  bridge = await bridgeClient(root);
  const floorCall = () => bridge.call("getWorkspaceFolders", {});
  for (let i = 0; i < WARMUP; i++) await floorCall();
  const floorTimes = [];
  for (let i = 0; i < RUNS; i++) floorTimes.push(await timeOf(floorCall));
  floor = median(floorTimes);
  for (const [tool, args, raw] of cases) {
    const call = () => bridge.call(tool, args);
    for (let i = 0; i < WARMUP; i++) {
      await call();
      await raw();
    }
    const times = { bridge: [], raw: [] };
    // Call by call in turn: a burst of load hits the pair alike.
    for (let i = 0; i < RUNS; i++) {
      times.bridge.push(await timeOf(call));
      times.raw.push(await timeOf(raw));
    }
    const [bridgeMs, rawMs] = [median(times.bridge), median(times.raw)];
    rows.push({ tool, args, bridgeMs, rawMs, ratio: bridgeMs / rawMs });
  }
} finally {
  await bridge?.stop();
  await stopAllBridges();
  await rm(root, { recursive: true, force: true });
}

const r1 = (x) => Math.round(x * 10) / 10;
console.log(`repository: ${COMMITS} commits, ${FILES} files, 50 branches, dirty tree; median of ${RUNS} after ${WARMUP} warm-up calls`);
console.log(`MCP floor (getWorkspaceFolders through the same client): ${r1(floor)} ms`);
for (const r of rows)
  console.log(
    `${`${r.tool} ${JSON.stringify(r.args)}`.padEnd(64)} bridge ${String(r1(r.bridgeMs)).padStart(7)} ms   raw git ${String(r1(r.rawMs)).padStart(7)} ms   x${Math.round(r.ratio * 100) / 100}`,
  );
if (process.env.BENCH_JSON === "1") {
  const json = rows.map((r) => ({
    what: `${r.tool} (${COMMITS} commits)`,
    bridge: `${r1(r.bridgeMs)} ms`,
    baseline: `${COMMAND_NAMES[r.tool] ?? "git"} ${r1(r.rawMs)} ms`,
    ratio: Math.round(r.ratio * 100) / 100,
    target: "<= 1.5",
  }));
  console.log(`BENCH_ROWS ${JSON.stringify(json)}`);
}
