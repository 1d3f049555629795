// `npm run typecheck`: the four type checks (everything with Node's types, the core with none,
// Bun's files with Bun's, Deno's entry points with `deno check`), at once. Each one's output is
// printed whole, under its name, once it ends; the script fails if any of them does.
//
// The three tsc projects are checked by TypeScript 7's native compiler (a dependency: it is the
// bundled language server), which needs about a third of tsc 5.9's CPU: 34 CPU-seconds for the
// three against 100-120 on a 2-core machine, where `npm test` runs these beside the tests. The
// build (`npm run build`) still compiles src/ and runtime/ with tsc 5.9, so what ships is checked
// by both. Where the native package is not installed (a platform it does not ship for), tsc 5.9
// checks all three; `TYPECHECK_TSC=1` asks for that anywhere.
//
// `deno check` runs offline from an empty DENO_DIR with --cached-only: everything it resolves must
// come from node_modules and deno.json's imports, never from a registry or a cache of one, and it
// must not write a deno.lock into the checkout.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { collectedRun } from "./collected-run.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const deno = join(ROOT, "node_modules", ".bin", "deno");
const TSC_PROJECTS = ["tsconfig.json", "src/tsconfig.json", "tsconfig.bun.json"];
/** The native compiler's argv prefix, or tsc 5.9's under Node when it is not installed or not wanted. */
function compiler() {
  if (process.env.TYPECHECK_TSC !== "1") {
    const native = join(ROOT, "node_modules", "@typescript", `typescript-${process.platform}-${process.arch}`, "lib", "tsc");
    if (existsSync(native)) return { name: "tsgo", argv: [native] };
  }
  return { name: "tsc", argv: [process.execPath, tsc] };
}

const DENO_ENTRIES = ["runtime/deno.ts", "runtime/main.ts", "bin/claude-ide-bridge.js"];

async function denoCheck() {
  const name = `deno check ${DENO_ENTRIES.join(" ")}`;
  const lockBefore = existsSync(join(ROOT, "deno.lock"));
  const denoDir = await mkdtemp(join(tmpdir(), "typecheck-deno-dir-"));
  try {
    const result = await collectedRun(name, deno, ["check", "--quiet", "--cached-only", ...DENO_ENTRIES], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", DENO_DIR: denoDir },
    });
    if (result.code === 0 && !lockBefore && existsSync(join(ROOT, "deno.lock"))) {
      return { name, code: 1, output: `${result.output}deno check wrote deno.lock into the checkout: an import reached a registry.\n` };
    }
    return result;
  } finally {
    await rm(denoDir, { recursive: true, force: true });
  }
}

const { name: checker, argv } = compiler();
const [program, ...programArgs] = argv;
const results = await Promise.all([
  ...TSC_PROJECTS.map((project) =>
    collectedRun(`${checker} -p ${project}`, program, [...programArgs, "-p", project, "--noEmit"], { cwd: ROOT }),
  ),
  denoCheck(),
]);
for (const { name, code, output } of results) {
  if (code === 0 && output.trim() === "") continue;
  process.stdout.write(`${name}: exit ${code}\n${output}`);
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length > 0) {
  console.error(`typecheck failed: ${failed.join(", ")}`);
  process.exit(1);
}
