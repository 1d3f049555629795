// `npm run typecheck`: the four type checks (everything with Node's types, the core with none,
// Bun's files with Bun's, Deno's entry points with `deno check`), at once. Each is one
// single-threaded checker, so one after another they left a core idle for the 2 minutes they take
// on a 2-core machine. Each one's output is printed whole, under its name, once it ends; the script
// fails if any of them does.
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

const results = await Promise.all([
  ...TSC_PROJECTS.map((project) => collectedRun(`tsc -p ${project}`, process.execPath, [tsc, "-p", project, "--noEmit"], { cwd: ROOT })),
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
