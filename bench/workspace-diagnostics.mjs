// Whole-workspace getDiagnostics on a fixture shaped like the repository where it was slow: a
// solution-style TypeScript repo (test/fixtures/lsp-repos.ts: tsconfig.json references a build and
// a spec project; BENCH_TS_MODULES route modules and their tests, default 140, about 300 files)
// plus benchmarks/ and runtime-tests/ with their own tsconfigs and errors of their own, and one
// error in src/. Through the real bridge process over MCP: the time of a cold and a warm call, the
// peak memory of everything the bridge started meanwhile (language servers, checkers), the share of
// src/ among the first diagnostics shown (as many as src/ has), and `file: "src"`. In the same run,
// the raw checkers (the project's own tsc, and TypeScript 7's, -p each of its four projects) for the ratios.
// Usage: npm run build && node bench/workspace-diagnostics.mjs
//
// With BENCH_WORKSPACE=<a checkout> (hono, its dependencies installed): a fresh bridge's cold and
// warm whole-workspace call on it, BENCH_RUNS times (default 2), each followed by the baseline of
// the same compiler work done directly in the same run: the compiler the bridge ran, -p each
// project it checked or was refused by, one after another. Where the time goes is told by the
// call's progress notifications (time since the call began) and by the processes the bridge ran
// (each one's command and the time it was first and last seen, sampled every 100 ms).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { register } from "tsx/esm/api";
import { descendants, rssMiB } from "./process-memory.mjs";

register();
const { startBridgeProcess, stopAllBridges, REPO_ROOT } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { writeFiles } = await import(new URL("../test/helpers/lsp-fixture.ts", import.meta.url).href);
const repos = await import(new URL("../test/fixtures/lsp-repos.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const require = createRequire(import.meta.url);
const TSGO = join(dirname(require.resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`)), "lib/tsc");
const PROJECTS = ["tsconfig.build.json", "tsconfig.spec.json", "benchmarks/tsconfig.json", "runtime-tests/tsconfig.json"];

if (process.env.BENCH_WORKSPACE !== undefined) {
  await checkout(await realpath(process.env.BENCH_WORKSPACE));
  process.exit(0);
}

function fixture() {
  const repo = repos.solutionTsRepo(Number(process.env.BENCH_TS_MODULES ?? 140));
  const own = { compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true, types: [] }, include: ["."] };
  repo.files["benchmarks/tsconfig.json"] = JSON.stringify(own);
  repo.files["runtime-tests/tsconfig.json"] = JSON.stringify(own);
  for (let i = 0; i < 20; i++) repo.files[`benchmarks/bench${i}.ts`] = `export const b${i}: number = "not a number";\n`;
  for (let i = 0; i < 10; i++) repo.files[`runtime-tests/rt${i}.ts`] = `export const r${i}: string = ${i};\n`;
  repo.files["src/broken.ts"] = 'export const broken: number = "oops";\nexport const alsoBroken: boolean = 1;\n';
  return repo;
}

async function materialize(repo) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "bench-wsdiag-")));
  await writeFiles(root, repo.files);
  // The project's own TypeScript, as a real repository has it.
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules", "typescript"), join(root, "node_modules", "typescript"));
  symlinkSync("../typescript/bin/tsc", join(root, "node_modules", ".bin", "tsc"));
  return root;
}

/** Runs the call while sampling the memory of the bridge's children; the peak of their sum. */
async function measured(pid, call) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      descendants(pid).reduce((sum, p) => sum + rssMiB(p), 0),
    );
  };
  const timer = setInterval(sample, 250);
  const t0 = performance.now();
  try {
    const result = await call();
    return { result, ms: Math.round(performance.now() - t0), peakMiB: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

function summary(r, srcErrors) {
  const shown = r.data?.diagnostics ?? [];
  const first = shown.slice(0, srcErrors);
  return {
    isError: r.isError,
    errors: r.data?.counts?.error,
    shown: shown.length,
    srcShareOfFirst: `${first.filter((d) => d.file.startsWith("src/")).length}/${srcErrors}`,
    firstShownFrom: shown[0]?.file,
    skipped: r.data?.skipped,
    partial: r.data?.partial,
  };
}

const repo = fixture();
const root = await materialize(repo);
const report = { files: Object.keys(repo.files).length };
try {
  // The raw checker first, so the bridge's run does not warm the page cache for it alone.
  const t0 = performance.now();
  let rawErrors = 0;
  for (const project of PROJECTS) {
    const r = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["--noEmit", "--pretty", "false", "-p", project], {
      cwd: root,
      encoding: "utf8",
    });
    rawErrors += (r.stdout.match(/error TS\d+/g) ?? []).length;
  }
  report.raw = { ms: Math.round(performance.now() - t0), errors: rawErrors };
  // TypeScript 7's compiler (the executable of the bridge's tsgo server) over the same four projects.
  const t1 = performance.now();
  let tsgoErrors = 0;
  for (const project of PROJECTS) {
    const r = spawnSync(TSGO, ["--noEmit", "--pretty", "false", "-p", project], { cwd: root, encoding: "utf8" });
    tsgoErrors += (r.stdout.match(/error TS\d+/g) ?? []).length;
  }
  report.rawTsgo = { ms: Math.round(performance.now() - t1), errors: tsgoErrors };
  const srcErrors = 2;
  const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"] });
  const client = new Client({ name: "bench-workspace-diagnostics", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  const call = async (args) => {
    const result = await client.callTool({ name: "getDiagnostics", arguments: args }, undefined, { timeout: 300_000 });
    return { text: result.content[0]?.text ?? "", isError: result.isError === true, data: result.structuredContent };
  };
  try {
    const cold = await measured(bridge.proc.pid, () => call({}));
    report.cold = { ms: cold.ms, peakMiB: cold.peakMiB, ...summary(cold.result, srcErrors) };
    const warm = await measured(bridge.proc.pid, () => call({}));
    report.warm = { ms: warm.ms, peakMiB: warm.peakMiB, ...summary(warm.result, srcErrors) };
    const src = await measured(bridge.proc.pid, () => call({ file: "src" }));
    report.src = { ms: src.ms, ...summary(src.result, srcErrors) };
    report.serversAfter = descendants(bridge.proc.pid).length;
    report.memoryAfterMiB = Math.round(descendants(bridge.proc.pid).reduce((sum, p) => sum + rssMiB(p), 0));
  } finally {
    await client.close();
    await bridge.stop();
  }
} finally {
  await stopAllBridges();
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(report, null, 2));
const line = (name, r) =>
  `${name}: ${r.ms} ms (${(r.ms / report.raw.ms).toFixed(2)}x raw tsc), peak ${r.peakMiB ?? "-"} MiB, ${r.errors} errors, src share of first shown ${r.srcShareOfFirst}${r.partial ? `, partial: ${r.partial}` : ""}`;
console.log(`raw tsc -p x${PROJECTS.length}: ${report.raw.ms} ms, ${report.raw.errors} errors (${report.files} files)`);
console.log(
  `raw tsgo -p x${PROJECTS.length}: ${report.rawTsgo.ms} ms (${(report.rawTsgo.ms / report.raw.ms).toFixed(2)}x raw tsc), ${report.rawTsgo.errors} errors`,
);
console.log(line("bridge cold", report.cold));
console.log(line("bridge warm", report.warm));
console.log(line('bridge file "src"', report.src));
console.log(`after: ${report.serversAfter} processes, ${report.memoryAfterMiB} MiB`);

/** The command line of a process, the program's path shortened to its last two parts. */
function commandOf(pid) {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return argv
      .map((a) => (a.startsWith("/") ? a.split("/").slice(-2).join("/") : a))
      .slice(0, 6)
      .join(" ");
  } catch {
    return undefined;
  }
}

/** Samples the bridge's processes while `call` runs: each one's command, first and last time seen (ms since the call began). */
async function traced(pid, call) {
  const seen = new Map();
  const t0 = performance.now();
  let peak = 0;
  const sample = () => {
    const now = Math.round(performance.now() - t0);
    const pids = descendants(pid);
    peak = Math.max(
      peak,
      pids.reduce((sum, p) => sum + rssMiB(p), 0),
    );
    for (const p of pids) {
      const known = seen.get(p);
      if (known !== undefined) known.last = now;
      else {
        const command = commandOf(p);
        if (command !== undefined) seen.set(p, { command, first: now, last: now });
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await call(t0);
    return { result, ms: Math.round(performance.now() - t0), peakMiB: Math.round(peak), processes: [...seen.values()] };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The baseline: `compiler -p project --noEmit` for each project, one after another, as the bridge
 * runs them: with the build info in a fresh directory as the bridge's runs have it, since a
 * composite project (hono's) checked in place writes its .tsbuildinfo into the checkout and the
 * next run reuses it (2-4 s for hono's spec project, against 12 s without it).
 */
function directRuns(root, compiler, projects) {
  const each = [];
  const t0 = performance.now();
  for (const project of projects) {
    const t = performance.now();
    const scratch = mkdtempSync(join(tmpdir(), "bench-wsdiag-build-info-"));
    const args = ["-p", project, "--noEmit", "--listFiles", "--pretty", "false", "--tsBuildInfoFile", join(scratch, "build-info")];
    const r = spawnSync(compiler, args, {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
    });
    each.push({ project, ms: Math.round(performance.now() - t), errors: (r.stdout.match(/error TS\d+/g) ?? []).length });
    rmSync(scratch, { recursive: true, force: true });
  }
  return { ms: Math.round(performance.now() - t0), each };
}

async function checkout(root) {
  const runs = Number(process.env.BENCH_RUNS ?? 2);
  const rows = [];
  for (let run = 0; run < runs; run++) {
    const loadBefore = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"] });
    const client = new Client({ name: "bench-workspace-diagnostics", version: "0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
    );
    const call = (t0, progress) =>
      client.callTool({ name: "getDiagnostics", arguments: { maxResults: 1 } }, undefined, {
        timeout: 600_000,
        onprogress: (p) => progress.push({ at: Math.round(performance.now() - t0), message: p.message }),
      });
    const row = { run, loadBefore };
    try {
      const coldProgress = [];
      const cold = await traced(bridge.proc.pid, (t0) => call(t0, coldProgress));
      const warmProgress = [];
      const warm = await traced(bridge.proc.pid, (t0) => call(t0, warmProgress));
      const data = cold.result.structuredContent ?? {};
      row.cold = {
        ms: cold.ms,
        peakMiB: cold.peakMiB,
        counts: data.counts,
        sources: data.sources,
        skipped: data.skipped,
        partial: data.partial,
      };
      row.coldProgress = coldProgress;
      row.coldProcesses = cold.processes.filter((p) => p.last - p.first >= 100 || !p.command.startsWith("git"));
      row.warm = { ms: warm.ms, counts: warm.result.structuredContent?.counts, partial: warm.result.structuredContent?.partial };
      row.warmProgress = warmProgress;
      row.warmProcesses = warm.processes;
      row.projects = [...(data.sources ?? []), ...(data.skipped ?? []).map((s) => s.source)]
        .filter((s) => s.startsWith("tsgo -p "))
        .map((s) => s.slice("tsgo -p ".length));
    } finally {
      await client.close();
      await bridge.stop();
    }
    await stopAllBridges();
    const compiler = ["node_modules/.bin/tsgo", TSGO].map((c) => (c.startsWith("/") ? c : join(root, c))).find((c) => existsSync(c));
    row.baseline = { compiler, ...directRuns(root, compiler, row.projects) };
    row.loadAfter = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    rows.push(row);
    console.log(JSON.stringify(row, null, 1));
    console.log(
      `run ${run}: cold ${row.cold.ms} ms, warm ${row.warm.ms} ms; baseline (${row.projects.length} projects, ${compiler}) ${row.baseline.ms} ms; cold/baseline ${(row.cold.ms / row.baseline.ms).toFixed(2)}; load ${loadBefore} -> ${row.loadAfter}`,
    );
  }
}
