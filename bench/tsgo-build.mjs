// Whole-project type checking of the solution-style TypeScript fixture (test/fixtures/lsp-repos.ts,
// BENCH_TS_MODULES route modules, default 150): TypeScript 7's build mode (`tsc -b`, the native
// compiler the bridge ships as its TypeScript language server) against TypeScript 5.9's `tsc -b`,
// in the same run, each cold (--force) and RUNS times; prints the median of each and their ratio,
// and whether both report the same errors. Usage: node bench/tsgo-build.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { register } from "tsx/esm/api";

register();
const repos = await import(new URL("../test/fixtures/lsp-repos.ts", import.meta.url).href);
const require = createRequire(import.meta.url);
const TSGO = join(dirname(require.resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`)), "lib/tsc");
const TSC = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");
const RUNS = Number(process.env.RUNS ?? 3);

const repo = repos.solutionTsRepo(Number(process.env.BENCH_TS_MODULES ?? 150));
repo.files["src/broken.ts"] = 'export const broken: number = "oops";\n';
const root = mkdtempSync(join(tmpdir(), "tsgo-build-"));
for (const [file, text] of Object.entries(repo.files)) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

function time(argv) {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: "utf8" });
  const ms = performance.now() - t0;
  rmSync(join(root, "dist"), { recursive: true, force: true });
  const errors = (r.stdout.match(/error TS\d+/g) ?? []).length;
  return { ms, errors };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tsgo = [];
const tsc = [];
// Interleaved, so a change in the machine's load falls on both.
for (let i = 0; i < RUNS; i++) {
  tsgo.push(time([TSGO, "-b", "--force", "--pretty", "false"]));
  tsc.push(time([process.execPath, TSC, "-b", "--force", "--pretty", "false"]));
}
rmSync(root, { recursive: true, force: true });
const a = median(tsgo.map((r) => r.ms));
const b = median(tsc.map((r) => r.ms));
console.log(
  JSON.stringify({
    files: Object.keys(repo.files).length,
    runs: RUNS,
    tsgoMs: Math.round(a),
    tscMs: Math.round(b),
    errors: { tsgo: tsgo[0].errors, tsc: tsc[0].errors },
  }),
);
console.log(
  `tsc -b over ${Object.keys(repo.files).length} files: TypeScript 7 is ${(b / a).toFixed(1)}x as fast as TypeScript 5.9 (median of ${RUNS}); errors ${tsgo[0].errors} vs ${tsc[0].errors}`,
);
