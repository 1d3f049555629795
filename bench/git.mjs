// Git tools through the bridge vs the same git commands run straight, in one run, on a repository
// with 20,000 commits over 2,000 files (built with git fast-import) and a dirty working tree:
//  - each tool called over MCP (Streamable HTTP, the real bridge process), median of RUNS calls
//    after WARMUP; the bridge runs its repository lookup and config read, then the command;
//  - the baseline: the git command(s) a person would type for the same answer, spawned directly
//    with the same options (execFile, no shell), median of RUNS;
//  - the floor: a tool that does no I/O (getWorkspaceFolders) through the same client.
// Usage: npm run build && node bench/git.mjs
import { execFile, execFileSync } from "node:child_process";
import { appendFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { register } from "tsx/esm/api";
import { medianTime } from "./timing.mjs";

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const RUNS = Number(process.env.BENCH_GIT_RUNS ?? 30);
const WARMUP = 5;
const COMMITS = 20_000;
const FILES = 2_000;
const run = promisify(execFile);

const timed = (fn) => medianTime(fn, { runs: RUNS, warmup: WARMUP });

/** COMMITS commits, the i-th changing file i % FILES (src/app.ts's function every 100th), timestamps one minute apart up to now. */
async function bigRepository() {
  const root = await realpath(await mkdtemp(join(tmpdir(), "bench-git-")));
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", root]);
  const start = Math.floor(Date.now() / 1000) - COMMITS * 60;
  const chunks = [];
  for (let i = 1; i <= COMMITS; i++) {
    const message = `change ${i}`;
    const file = i % 100 === 0 ? "src/app.ts" : `src/m${i % 20}/f${i % FILES}.txt`;
    const content = i % 100 === 0 ? `export function handle(n: number): number {\n  return n + ${i};\n}\n` : `version ${i}\n`;
    chunks.push(
      `commit refs/heads/main\ncommitter Bench <bench@example.com> ${start + i * 60} +0000\ndata ${Buffer.byteLength(message)}\n${message}\nM 644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: chunks.join(""), maxBuffer: 1 << 28 });
  execFileSync("git", ["reset", "--quiet", "--hard", "main"], { cwd: root });
  for (let b = 0; b < 50; b++) execFileSync("git", ["branch", `topic/${b}`, `main~${b * 10}`], { cwd: root });
  // A working tree with some of everything: modified, staged, untracked.
  for (let i = 0; i < 20; i++) await appendFile(join(root, `src/m${i}/f${i}.txt`), "local edit\n");
  execFileSync("git", ["add", "src/m1/f1.txt"], { cwd: root });
  await writeFile(join(root, "notes.md"), "new\n");
  return root;
}

async function bridgeClient(root) {
  const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"] });
  const client = new Client({ name: "bench-git", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result;
  };
  return {
    call,
    stop: async () => {
      await client.close();
      await bridge.stop();
    },
  };
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
    () => git("log", "--no-ext-diff", "--max-count=10", "-L:handle:src/app.ts"),
  ],
  [
    "getGitHotspots",
    { days: 3650 },
    () =>
      git("log", "--since=3650.days.ago", "--max-count=5000", "--no-merges", "--no-renames", "--numstat", "--format=%x1e", "-z", "--", "."),
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

const bridge = await bridgeClient(root);
const floor = await timed(() => bridge.call("getWorkspaceFolders", {}));
const rows = [];
for (const [tool, args, raw] of CASES) {
  const bridgeMs = await timed(() => bridge.call(tool, args));
  const rawMs = await timed(raw);
  rows.push({ tool: `${tool} ${JSON.stringify(args)}`, bridgeMs, rawMs, ratio: bridgeMs / rawMs });
}
await bridge.stop();
await stopAllBridges();
await rm(root, { recursive: true, force: true });

const r1 = (x) => Math.round(x * 10) / 10;
console.log(`repository: ${COMMITS} commits, ${FILES} files, 50 branches, dirty tree; median of ${RUNS} after ${WARMUP} warm-up calls`);
console.log(`MCP floor (getWorkspaceFolders through the same client): ${r1(floor)} ms`);
for (const r of rows)
  console.log(
    `${r.tool.padEnd(64)} bridge ${String(r1(r.bridgeMs)).padStart(7)} ms   raw git ${String(r1(r.rawMs)).padStart(7)} ms   x${r1(r.ratio)}`,
  );
