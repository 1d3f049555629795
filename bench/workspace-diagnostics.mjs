// Whole-workspace getDiagnostics on a fixture shaped like the repository where it was slow: a
// solution-style TypeScript repo (test/fixtures/lsp-repos.ts: tsconfig.json references a build and
// a spec project; BENCH_TS_MODULES route modules and their tests, default 140, about 300 files)
// plus benchmarks/ and runtime-tests/ with their own tsconfigs and errors of their own, and one
// error in src/. Through the real bridge process over MCP: the time of a cold and a warm call, the
// peak memory of everything the bridge started meanwhile (language servers, checkers), the share of
// src/ among the first diagnostics shown (as many as src/ has), and `file: "src"`. In the same run,
// the raw checkers (the project's own tsc, and TypeScript 7's, -p each of its four projects) for the ratios.
// Usage: npm run build && node bench/workspace-diagnostics.mjs
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
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
