// Whether the bridge's answers are true, per language, on fixtures shaped like the repositories
// where they were not (test/fixtures/lsp-repos.ts: a solution-style TypeScript repo, a Python
// package whose pyright include leaves its tests out, a C library with a compile database and a
// shared header, a Go module). For each, through the real bridge process over MCP:
//  - first answers: findReferences on each listed symbol of a fresh bridge, compared with the
//    truth (every whole-word mention of the name; the fixtures mention names only where used):
//    how many first answers were complete, how many said "complete" and were not, and the time
//    from the first call to an answer that says complete and is;
//  - rename: renameSymbol of the first symbol on a fresh copy, then the language's own checker and
//    the fixture's tests: what the bridge claimed, and whether both still pass;
//  - staleness: a dependency rewritten on disk by rename-over (as sed -i and editors save), then
//    getDiagnostics of a file that uses it asked until it shows the break, and again after the
//    file is put back until it is clean: how long each took (15 s at most);
//  - workspace diagnostics: getDiagnostics of the whole TypeScript workspace (BENCH_TS_MODULES
//    route modules, default 150; benchmarks/ with a tsconfig of its own), cold then warm, and of
//    `src`: time, the language servers left running and their memory; in the same run the two ways
//    the bridge can check it: one language-server request per file (the LSP service in process,
//    cold then warm: the path the bridge took before, and takes for files of no project) against
//    what getDiagnostics does now, the compiler per tsconfig project; and TypeScript 7's compiler
//    run directly, `-p` each project and `-b --noEmit` the solution, with the files each run wrote
//    into the workspace (there must be none).
//  - pyworkspace, goworkspace: whole-workspace getDiagnostics of the Python and Go fixtures against
//    pyright --outputjson, and go vet ./... + go build ./..., run directly.
// Usage: npm run build && node bench/lsp-truth.mjs [ts|py|c|cnodb|go|pyworkspace|goworkspace ...]   (JSON, then one line per figure)
// BENCH_PY_MODULES=N: the Python fixture with N plugin modules and N test modules (default 6).
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";

register();
const { stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { writeFiles } = await import(new URL("../test/helpers/lsp-fixture.ts", import.meta.url).href);
const repos = await import(new URL("../test/fixtures/lsp-repos.ts", import.meta.url).href);
const checks = await import(new URL("../test/helpers/lsp-repo-checks.ts", import.meta.url).href);
const workspaceChecks = await import(new URL("./workspace-checks.mjs", import.meta.url).href);
const { benchBridge, locationLines } = await import("./mcp-bridge.mjs");

const VERIFY_LIMIT_MS = 60_000;
const STALE_LIMIT_MS = 15_000;
const POLL_MS = 100;

const LANGUAGES = {
  ts: {
    repo: () => repos.solutionTsRepo(),
    check: checks.checkTypeScript,
    test: checks.testTypeScript,
    rename: { newName: "HttpError" },
    stale: {
      changed: "src/http-exception.ts",
      dependent: "src/routes/route0.ts",
      from: "export class HTTPException",
      to: "export class HttpErr",
    },
  },
  py: {
    repo: () => repos.pythonRepo(Number(process.env.BENCH_PY_MODULES ?? 6)),
    check: checks.checkPython,
    test: checks.testPython,
    rename: { newName: "say" },
    stale: { changed: "src/clilib/core.py", dependent: "src/clilib/plugin0.py", from: "def echo(", to: "def echo_gone(" },
  },
  c: {
    repo: () => repos.cRepo(),
    check: checks.checkC,
    test: checks.testC,
    rename: { newName: "json_read_number" },
    stale: { changed: "include/jsonlib.h", dependent: "src/reader0.c", from: "} json_value;", to: "} json_val;" },
  },
  // The C library without its compile database: clangd has no background index coming, so each
  // first answer is about the open files and must say partial, and soon (nothing to wait for).
  cnodb: {
    repo: () => {
      const repo = repos.cRepo();
      delete repo.files["build/compile_commands.json"];
      return repo;
    },
    firstOnly: true,
  },
  go: {
    repo: () => repos.goRepo(),
    check: checks.checkGo,
    test: checks.testGo,
    rename: { newName: "ReadFlag" },
    stale: { changed: "core/core.go", dependent: "cmd0/cmd.go", from: "func ParseFlag(", to: "func ParseFlg(" },
  },
};

async function materialize(repo) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "bench-truth-")));
  await writeFiles(root, repos.filesAt(repo, root));
  return root;
}

async function bridgeAt(root) {
  const bridge = await benchBridge(root, { name: "bench-lsp-truth", timeoutMs: 300_000 });
  const call = async (name, args) => {
    const result = await bridge.callTool(name, args);
    return { text: result.content[0]?.text ?? "", isError: result.isError === true, data: result.structuredContent };
  };
  return { call, pid: bridge.pid, stop: bridge.stop };
}

const same = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const saysComplete = (text) => !/^PARTIAL/m.test(text) && /\(complete\)/.test(text);

async function firstAnswers(spec) {
  const verifyLimitMs = spec.firstOnly ? 0 : VERIFY_LIMIT_MS;
  const repo = spec.repo();
  const root = await materialize(repo);
  const bridge = await bridgeAt(root).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  const out = [];
  try {
    for (const symbol of repo.symbols) {
      const truth = repos.mentionsOf(repo.files, symbol.name, repo.extensions);
      const args = { file: symbol.file, line: symbol.line, symbol: symbol.name, verbosity: "minimal", maxResults: 5000 };
      const t0 = performance.now();
      const first = await bridge.call("findReferences", args);
      const found = locationLines(first.text);
      const entry = {
        symbol: symbol.name,
        truth: truth.size,
        first: found.size,
        firstComplete: same(found, truth),
        firstSaysComplete: saysComplete(first.text),
        firstSaysPartial: /^PARTIAL/.test(first.text),
        firstMs: Math.round(performance.now() - t0),
      };
      let answer = first;
      while (!(saysComplete(answer.text) && same(locationLines(answer.text), truth)) && performance.now() - t0 < verifyLimitMs) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        answer = await bridge.call("findReferences", args);
      }
      entry.verifiedCompleteMs =
        saysComplete(answer.text) && same(locationLines(answer.text), truth) ? Math.round(performance.now() - t0) : null;
      out.push(entry);
    }
  } finally {
    await bridge.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}

async function rename(spec) {
  const repo = spec.repo();
  const root = await materialize(repo);
  const bridge = await bridgeAt(root).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  const symbol = repo.symbols[0];
  try {
    const t0 = performance.now();
    const answer = await bridge.call("renameSymbol", {
      file: symbol.file,
      line: symbol.line,
      symbol: symbol.name,
      newName: spec.rename.newName,
    });
    const ms = Math.round(performance.now() - t0);
    const head = answer.text.split("\n").slice(0, 2).join(" / ");
    const check = spec.check(root);
    const test = spec.test(root);
    const left = repos.mentionsOf(
      Object.fromEntries(listFiles(root).map((f) => [f, readFileSync(join(root, f), "utf8")])),
      symbol.name,
      repo.extensions,
    ).size;
    return { symbol: symbol.name, claimed: head, ms, checkerPasses: check.ok, testsPass: test.ok, oldNameLeft: left };
  } finally {
    await bridge.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

function listFiles(root, dir = "") {
  const out = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (!["node_modules", ".cache", "dist", "build", ".git"].includes(e.name)) out.push(...listFiles(root, rel));
    } else out.push(rel);
  }
  return out;
}

/** Rewrites a file as sed -i and most editors do: a temporary file renamed over it. */
function renameOver(root, file, text) {
  const tmp = join(root, `${file}.tmp-save`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(root, file));
}

async function staleness(spec) {
  const repo = spec.repo();
  const root = await materialize(repo);
  const bridge = await bridgeAt(root).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  const { changed, dependent, from, to } = spec.stale;
  const errors = async () => {
    const r = await bridge.call("getDiagnostics", { file: dependent, severity: "error" });
    return r.data?.counts?.error ?? (r.isError ? -1 : 0);
  };
  // Asked every POLL_MS: the figure's resolution, not a synchronisation.
  const until = async (want) => {
    const t0 = performance.now();
    for (;;) {
      const n = await errors();
      if (want(n)) return Math.round(performance.now() - t0);
      if (performance.now() - t0 > STALE_LIMIT_MS) return null;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  try {
    const before = await errors();
    const original = readFileSync(join(root, changed), "utf8");
    renameOver(root, changed, original.replace(from, to));
    const brokenSeenMs = await until((n) => n > 0);
    renameOver(root, changed, original);
    const cleanSeenMs = await until((n) => n === 0);
    return { changed, dependent, errorsBefore: before, brokenSeenMs, cleanSeenMs };
  } finally {
    await bridge.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(LANGUAGES);
const report = {};
try {
  for (const lang of wanted) {
    if (lang === "workspace") continue;
    if (lang === "pyworkspace" || lang === "goworkspace") {
      report[lang] = await workspaceChecks.checkerWorkspace(LANGUAGES[lang.slice(0, 2)].repo(), {
        lang: lang.slice(0, 2),
        materialize,
        bridgeAt,
      });
      continue;
    }
    const spec = LANGUAGES[lang];
    report[lang] = { references: await firstAnswers(spec), ...(spec.firstOnly ? {} : { rename: await rename(spec) }) };
    if (spec.stale) report[lang].staleness = await staleness(spec);
  }
  if (wanted.includes("ts") || wanted.includes("workspace"))
    report.workspaceDiagnostics = await workspaceChecks.workspaceDiagnostics({ repos, materialize, bridgeAt });
} finally {
  await stopAllBridges();
}
console.log(JSON.stringify(report, null, 2));
for (const [lang, r] of Object.entries(report)) {
  if (lang === "workspaceDiagnostics") continue;
  if (lang.endsWith("workspace")) {
    console.log(
      `${lang} getDiagnostics (${r.files} files): cold ${r.ms} ms (${ratio(r.ms, r.rawMs)}), warm ${r.warmMs} ms (${ratio(r.warmMs, r.rawMs)}) against ${r.direct.join(" + ")} directly ${r.rawMs} ms; ${r.errors} errors`,
    );
    continue;
  }
  const refs = r.references;
  const complete = refs.filter((x) => x.firstComplete).length;
  const falseClaims = refs.filter((x) => x.firstSaysComplete && !x.firstComplete).length;
  const verified = refs.map((x) => x.verifiedCompleteMs).filter((x) => x !== null);
  const partial = refs.filter((x) => x.firstSaysPartial).length;
  const firstMs = refs.map((x) => x.firstMs).sort((a, b) => a - b);
  console.log(
    `${lang}: first answers complete ${complete}/${refs.length}, said complete but were not ${falseClaims}, said partial ${partial}; verified-complete in ${verified.length}/${refs.length}, slowest ${verified.length > 0 ? Math.max(...verified) : "-"} ms; the very first call ${firstMs.length > 0 ? refs[0].firstMs : "-"} ms, median ${firstMs[Math.floor(firstMs.length / 2)] ?? "-"} ms`,
  );
  if (r.rename)
    console.log(
      `${lang}: rename ${r.rename.symbol}: "${r.rename.claimed}"; checker ${r.rename.checkerPasses ? "passes" : "FAILS"}, tests ${r.rename.testsPass ? "pass" : "FAIL"}, old name left in ${r.rename.oldNameLeft} lines`,
    );
  if (r.staleness)
    console.log(
      `${lang}: staleness of ${r.staleness.dependent} after ${r.staleness.changed} changed by rename-over: break seen after ${r.staleness.brokenSeenMs ?? "> 15000"} ms, fix seen after ${r.staleness.cleanSeenMs ?? "> 15000"} ms`,
    );
}
if (report.workspaceDiagnostics) {
  const w = report.workspaceDiagnostics;
  console.log(
    `workspace getDiagnostics (${w.files} files): cold ${w.ms} ms (${ratio(w.ms, w.raw.ms)}), warm ${w.warmMs} ms (${ratio(w.warmMs, w.raw.ms)}) against tsgo --noEmit -p x${w.raw.projects} directly ${w.raw.ms} ms (${w.raw.errors} errors; the bridge ${w.errors}, warm ${w.warmErrors}), first shown from ${w.firstShownFrom}, src error shown: ${w.srcErrorShown}; ${w.serverProcesses.length} server processes, ${w.serversMiB} MiB; by directory "src": ${w.bySrc.isError ? `error: ${w.bySrc.answer}` : `${w.bySrc.ms} ms (${ratio(w.bySrc.ms, w.raw.ms)}), ${w.bySrc.errors} errors`}`,
  );
  console.log(
    `workspace, per-file language-server requests (the old path, in process): cold ${w.perFile.cold.ms} ms, warm ${w.perFile.warm.ms} ms (${w.perFile.warm.errors} errors in ${w.perFile.warm.files} files); the compiler path (getDiagnostics now, ${w.sources?.join(", ")}): cold ${ratio(w.perFile.cold.ms, w.ms)} faster, warm ${ratio(w.perFile.warm.ms, w.warmMs)} faster`,
  );
  console.log(
    `workspace, tsgo directly: -p x${w.raw.projects} ${w.raw.ms} ms (wrote ${w.raw.wrote.length} files), -b --noEmit ${w.build.ms} ms (${ratio(w.build.ms, w.raw.ms)} of -p; ${w.build.errors} errors; wrote ${w.build.wrote.length > 0 ? w.build.wrote.join(", ") : "nothing"})`,
  );
}

function ratio(ms, baseline) {
  return `${(ms / baseline).toFixed(2)}x`;
}
