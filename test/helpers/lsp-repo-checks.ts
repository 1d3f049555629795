// The languages' own checkers and the fixtures' own tests (test/fixtures/lsp-repos.ts), run on a
// workspace after an edit: what a rename must leave passing. Each returns whether it passed and
// what it printed, so a failing assertion shows the compiler's words.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

export interface CheckResult {
  ok: boolean;
  output: string;
}

const ROOT = new URL("../..", import.meta.url).pathname;
/** TypeScript 7's native compiler, the binary the bridge runs as a server (its -b is the project's build). */
export const TSGO = join(ROOT, `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);
const PYRIGHT = join(ROOT, "node_modules/.bin/pyright");
const TSX = join(ROOT, "node_modules/tsx/dist/esm/index.mjs");

function run(cmd: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): CheckResult {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

function all(results: readonly CheckResult[]): CheckResult {
  return { ok: results.every((r) => r.ok), output: results.map((r) => r.output).join("\n") };
}

function filesUnder(root: string, dir: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(suffix)) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** The solution's build: every project the root tsconfig references (tsc -b). */
export function checkTypeScript(root: string): CheckResult {
  return run(TSGO, ["-b", "--force"], root);
}

/**
 * Each test module imported by one node through tsx (its assertions run at the top level): a missing
 * export or a failed assertion fails it, and each failure is printed with its file. One process for
 * all: a node and tsx per module took most of a rename test's time on a loaded machine.
 */
export function testTypeScript(root: string): CheckResult {
  const tests = [...filesUnder(root, "src", ".test.ts"), ...filesUnder(root, "test", ".test.ts")];
  const modules = tests.map((file) => [file, pathToFileURL(join(root, file)).href]);
  const script = `for (const [file, url] of ${JSON.stringify(modules)}) {
  try { await import(url); }
  catch (err) { console.error(file + ": " + (err instanceof Error ? err.stack : String(err))); process.exitCode = 1; }
}`;
  return run(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], root);
}

/** pyright over the package and its tests (named explicitly: the project's include leaves the tests out). */
export function checkPython(root: string): CheckResult {
  return run(PYRIGHT, ["src", "tests"], root);
}

export function testPython(root: string): CheckResult {
  return run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], root, { PYTHONDONTWRITEBYTECODE: "1" });
}

/** Every translation unit of the compile database, compiled with its flags (syntax and types only). */
export function checkC(root: string): CheckResult {
  const units = [...filesUnder(root, "src", ".c"), ...filesUnder(root, "tests", ".c")];
  return all(
    units.map((unit) => run("cc", ["-std=c11", "-Werror=implicit-function-declaration", "-Iinclude", "-fsyntax-only", unit], root)),
  );
}

export function testC(root: string): CheckResult {
  const units = [...filesUnder(root, "src", ".c"), ...filesUnder(root, "tests", ".c")];
  const built = run("cc", ["-std=c11", "-Iinclude", "-o", "build/test_main", ...units], root);
  return built.ok ? run(join(root, "build/test_main"), [], root) : built;
}

export function checkGo(root: string): CheckResult {
  return all([run("go", ["build", "./..."], root, { GOFLAGS: "-mod=mod" }), run("go", ["vet", "./..."], root)]);
}

export function testGo(root: string): CheckResult {
  return run("go", ["test", "./..."], root);
}
