// The workspace-diagnostics figures of bench/lsp-truth.mjs (modes `workspace`, `pyworkspace`,
// `goworkspace`): whole-workspace getDiagnostics through the bridge against the two ways it can
// check a workspace (one language-server request per file, or the language's compiler per
// project) and against the compilers run directly. Loaded by lsp-truth.mjs after tsx is registered.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { descendants, rssMiB } from "./process-memory.mjs";

const { lspFixture } = await import(new URL("../test/helpers/lsp-fixture.ts", import.meta.url).href);

const TSGO = join(
  dirname(createRequire(import.meta.url).resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`)),
  "lib/tsc",
);
const PYRIGHT = join(dirname(createRequire(import.meta.url).resolve("pyright/package.json")), "index.js");

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

export async function workspaceDiagnostics({ repos, materialize, bridgeAt }) {
  const modules = Number(process.env.BENCH_TS_MODULES ?? 150);
  const repo = repos.solutionTsRepo(modules);
  // What a real repository has besides its code: benchmarks and examples with errors of their own.
  for (let i = 0; i < 20; i++) repo.files[`benchmarks/bench${i}.ts`] = `export const b${i}: number = "not a number";\n`;
  repo.files["benchmarks/tsconfig.json"] = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["."] });
  repo.files["src/broken.ts"] = 'export const broken: number = "oops";\n';
  const root = await materialize(repo);
  // The checker on its own first (each project of the solution), so the bridge's run does not warm the page cache for it alone.
  const raw = directCheck(root, ["tsconfig.build.json", "tsconfig.spec.json", "benchmarks/tsconfig.json"]);
  const build = solutionBuild(root);
  const perFile = await perFileCheck(repo.files);
  const bridge = await bridgeAt(root).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  try {
    const t0 = performance.now();
    const r = await bridge.call("getDiagnostics", {});
    const ms = Math.round(performance.now() - t0);
    const shown = r.data?.diagnostics ?? [];
    const procs = descendants(bridge.pid).filter((p) => rssMiB(p) > 0);
    const memory = procs.reduce((sum, p) => sum + rssMiB(p), 0);
    const tw = performance.now();
    const warm = await bridge.call("getDiagnostics", {});
    const warmMs = Math.round(performance.now() - tw);
    const t1 = performance.now();
    const src = await bridge.call("getDiagnostics", { file: "src" });
    const srcMs = Math.round(performance.now() - t1);
    return {
      files: Object.keys(repo.files).length,
      ms,
      warmMs,
      warmErrors: warm.data?.counts?.error,
      sources: r.data?.sources,
      raw,
      build,
      perFile,
      isError: r.isError,
      errors: r.data?.counts?.error,
      partial: r.data?.partial,
      firstShownFrom: shown[0]?.file,
      srcErrorShown: shown.some((d) => d.file === "src/broken.ts"),
      skipped: r.data?.skipped,
      serverProcesses: procs.map(commandOf),
      serversMiB: Math.round(memory),
      bySrc: { ms: srcMs, isError: src.isError, errors: src.data?.counts?.error, answer: src.isError ? src.text.slice(0, 160) : undefined },
    };
  } finally {
    await bridge.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Whole-workspace getDiagnostics on the Python or Go fixture, cold then warm, against the language's
 * whole-project checker run directly on the same tree (pyright --outputjson; go vet ./... and go
 * build ./...): the ratio says whether a whole-project checker path would beat one request per file.
 */
export async function checkerWorkspace(repo, { lang, materialize, bridgeAt }) {
  const root = await materialize(repo);
  const direct =
    lang === "py"
      ? [[process.execPath, [PYRIGHT, "--outputjson"]]]
      : [
          ["go", ["vet", "./..."]],
          ["go", ["build", "./..."]],
        ];
  const t0 = performance.now();
  for (const [cmd, args] of direct) spawnSync(cmd, args, { cwd: root, encoding: "utf8" });
  const rawMs = Math.round(performance.now() - t0);
  const bridge = await bridgeAt(root).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  try {
    const t1 = performance.now();
    const cold = await bridge.call("getDiagnostics", {});
    const ms = Math.round(performance.now() - t1);
    const t2 = performance.now();
    await bridge.call("getDiagnostics", {});
    const warmMs = Math.round(performance.now() - t2);
    return {
      files: Object.keys(repo.files).length,
      ms,
      warmMs,
      rawMs,
      direct: direct.map(([c, a]) => `${c} ${a.join(" ")}`),
      errors: cold.data?.counts?.error,
    };
  } finally {
    await bridge.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * TypeScript 7's compiler run directly, `--noEmit -p` each project in turn with the bridge's other
 * flags (src/services/diagnostics/tsgo-check.ts: build info to a private file): the time, the
 * errors it finds and the files it wrote into the workspace.
 */
function directCheck(root, projects) {
  const before = treeOf(root);
  const away = mkdtempSync(join(tmpdir(), "bench-buildinfo-"));
  const t0 = performance.now();
  let errors = 0;
  for (const project of projects) {
    const args = ["--noEmit", "--pretty", "false", "--listFiles", "--tsBuildInfoFile", join(away, "info"), "--generateTrace", "/dev/null"];
    const r = spawnSync(TSGO, ["-p", project, ...args], { cwd: root, encoding: "utf8" });
    errors += (r.stdout.match(/: error TS\d+:/g) ?? []).length;
  }
  const ms = Math.round(performance.now() - t0);
  rmSync(away, { recursive: true, force: true });
  return { ms, errors, projects: projects.length, wrote: writtenSince(root, before) };
}

/** `tsgo -b --noEmit` of the solution config: the time, the errors, and what it wrote (build info, output). */
function solutionBuild(root) {
  const before = treeOf(root);
  const t0 = performance.now();
  const r = spawnSync(TSGO, ["-b", "--noEmit", "--pretty", "false"], { cwd: root, encoding: "utf8" });
  const out = {
    ms: Math.round(performance.now() - t0),
    errors: (r.stdout.match(/: error TS\d+:/g) ?? []).length,
    wrote: writtenSince(root, before),
  };
  for (const file of out.wrote) rmSync(join(root, file), { force: true });
  return out;
}

/** Every file under root but node_modules, with its modification time. */
function treeOf(root) {
  const files = new Map();
  for (const rel of readdirSync(root, { recursive: true })) {
    if (rel.startsWith("node_modules")) continue;
    const stat = statSync(join(root, rel));
    if (stat.isFile()) files.set(rel, stat.mtimeMs);
  }
  return files;
}

function writtenSince(root, before) {
  return [...treeOf(root)].filter(([rel, mtime]) => before.get(rel) !== mtime).map(([rel]) => rel);
}

/**
 * The way the bridge checked a workspace before the compiler path: one language-server request per
 * file (the LSP service in this process, on a copy of the same tree), cold then warm.
 */
async function perFileCheck(files) {
  // The LSP service's own timers and children do not hold the event loop open (unref'd, as in the
  // bridge, which its server holds open): this does, until the service has stopped.
  const keepAlive = setInterval(() => {}, 1000);
  const fx = await lspFixture(files);
  try {
    const once = async () => {
      const t0 = performance.now();
      const found = await fx.lsp.workspaceDiagnostics({
        signal: AbortSignal.timeout(300_000),
        maxFiles: 2000,
        deadline: Date.now() + 300_000,
      });
      const errors = found.files.reduce((n, f) => n + f.items.filter((d) => (d.severity ?? 1) === 1).length, 0);
      return { ms: Math.round(performance.now() - t0), files: found.files.length, errors };
    };
    const cold = await once();
    const warm = await once();
    return { cold, warm };
  } finally {
    await fx.stop();
    clearInterval(keepAlive);
  }
}
