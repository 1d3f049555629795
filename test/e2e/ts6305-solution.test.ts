// A real TS6305: a solution (root tsconfig with references) whose project app imports the sources
// of the project lib it references (composite), lib not built, so `tsgo -p app/tsconfig.json`
// refuses ("Output file '.../lib/dist/index.d.ts' has not been built from source file"). The whole-
// workspace getDiagnostics (real tsgo, real language servers) must then check app's files one by
// one with the language server, report the type errors planted there, name the refusal and never
// call app's files compiler-checked; a warm call keeps the refusal (tsgo is not run on app again
// while nothing it was computed from changed, project-check-cache.ts); and once lib is built
// (`tsc -b lib`), the next call checks app whole with the compiler again, until lib's sources change
// without a rebuild: then app's compiler run would read lib's old output, and its files go to the
// language server again (stale-references.ts).
import { execFile } from "node:child_process";
import { readdir, utimes } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { Runtime } from "../../src/ports/runtime.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { dispatcher, type Dispatcher } from "../helpers/tool-dispatch.ts";

interface Result {
  diagnostics: { file: string; line: number; severity: string; code?: string; message: string; source: string }[];
  counts: { error: number };
  sources: string[];
  skipped: { source: string; reason: string }[];
  partial?: string;
}

const strict = { strict: true, module: "nodenext", types: [] };
const FILES = {
  "package.json": JSON.stringify({ name: "solution", private: true, type: "module" }),
  "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./lib" }, { path: "./app" }] }),
  "lib/tsconfig.json": JSON.stringify({
    compilerOptions: { ...strict, composite: true, declaration: true, rootDir: "src", outDir: "dist" },
    include: ["src"],
  }),
  "lib/src/index.ts": "export function greet(name: string): string {\n  return `hello ${name}`;\n}\n",
  "app/tsconfig.json": JSON.stringify({ compilerOptions: { ...strict, noEmit: true }, include: ["src"], references: [{ path: "../lib" }] }),
  // A type error through lib's API, and one of app's own in a file that imports nothing.
  "app/src/main.ts": 'import { greet } from "../../lib/src/index.js";\n\nexport const length: number = greet("app");\n',
  "app/src/util.ts": "export const answer: string = 42;\n",
};

let fx: LspFixture;
let tools: Dispatcher;
/** The compiler runs over app's project. */
let appRuns = 0;
beforeAll(async () => {
  fx = await lspFixture(FILES);
  // Written long before the check, as a checkout is: an input modified while the compiler ran (give
  // or take the clock's grain) would rightly keep nothing (project-check-cache.ts).
  const then = new Date(Date.now() - 60_000);
  for (const entry of await readdir(fx.root, { recursive: true })) await utimes(join(fx.root, entry), then, then);
  await utimes(fx.root, then, then);
  const real = createNodeRuntime();
  const counting: Runtime = {
    ...real,
    spawn(cmd, args, opts) {
      if (args.includes("-p") && args.includes("./app/tsconfig.json")) appRuns += 1;
      return real.spawn(cmd, args, opts);
    },
  };
  tools = await dispatcher(fx.root, { lsp: fx.lsp, runtime: counting });
}, 60_000);
afterAll(async () => {
  await fx?.stop();
});

const all = () => tools.data<Result>("getDiagnostics", { maxResults: 500 });
/** app's errors as `file:line (compiler or server)`. */
const appErrors = (r: Result) =>
  r.diagnostics
    .filter((d) => d.file.startsWith("app/") && d.severity === "error")
    .map((d) => `${d.file}:${d.line} ${d.source.startsWith("tsgo (") ? d.source : "server"}`)
    .sort();

it("checks a refused project's files with the language server, keeps the refusal warm, and checks it whole once its reference is built", async () => {
  const cold = await all();
  expect(cold.partial).toBeUndefined();
  // The refusal is real, named, and the project is not among what checked.
  expect(cold.skipped).toContainEqual({ source: "tsgo -p app/tsconfig.json", reason: expect.stringContaining("TS6305") });
  expect(cold.sources).toContain("tsgo -p lib/tsconfig.json");
  expect(cold.sources).not.toContain("tsgo -p app/tsconfig.json");
  // Every file of app checked, by the server, each with its planted error.
  expect(appErrors(cold)).toEqual(["app/src/main.ts:3 server", "app/src/util.ts:1 server"]);
  expect(cold.diagnostics.find((d) => d.file === "app/src/main.ts")?.message).toContain("not assignable to type 'number'");
  expect(cold.diagnostics.filter((d) => d.file.startsWith("lib/"))).toEqual([]);
  expect(appRuns).toBe(1);

  // Warm: the same answer, the refusal kept (the compiler not run on app again).
  const warm = await all();
  expect(warm).toEqual(cold);
  expect(appRuns).toBe(1);

  // lib built: app's project now compiles as the editor sees it, and is checked whole by the compiler.
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await promisify(execFile)(process.execPath, [tsc, "-b", "lib"], { cwd: fx.root });
  const built = await all();
  expect(appRuns).toBe(2);
  expect(built.partial).toBeUndefined();
  expect(built.sources).toContain("tsgo -p app/tsconfig.json");
  expect(built.skipped.filter((s) => s.reason.includes("TS6305"))).toEqual([]);
  expect(appErrors(built)).toEqual(["app/src/main.ts:3 tsgo (app/tsconfig.json)", "app/src/util.ts:1 tsgo (app/tsconfig.json)"]);
  // The build's output is no source: nothing reported in lib/dist.
  expect(built.diagnostics.filter((d) => d.file.startsWith("lib/"))).toEqual([]);

  // lib's source changed and not rebuilt: `tsgo -p app` would read the old lib/dist/index.d.ts and
  // report main.ts's line 3, which the sources (the editor, `tsc -b`) no longer break. The project is
  // checked file by file by the server instead, and the answer says why.
  await fx.write("lib/src/index.ts", "export function greet(name: string): number {\n  return name.length;\n}\n");
  const stale = await all();
  expect(stale.sources).not.toContain("tsgo -p app/tsconfig.json");
  expect(stale.skipped).toContainEqual({
    source: "tsgo -p app/tsconfig.json",
    reason: expect.stringContaining("build output of lib/tsconfig.json, older than its sources"),
  });
  expect(appErrors(stale)).toEqual(["app/src/util.ts:1 server"]);
}, 240_000);

it("does not count an edit of a referenced project by the compiler over its old build output", async () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await promisify(execFile)(process.execPath, [tsc, "-b", "lib"], { cwd: fx.root });
  // greet now takes a number: app's call with a string breaks in the sources, not in lib/dist's old .d.ts.
  const { transactionId } = await tools.data<{ transactionId: string }>("beginTransaction", {});
  await tools.text("stageEdit", {
    transactionId,
    filePath: "lib/src/index.ts",
    content: "export function greet(name: number): number {\n  return name;\n}\n",
  });
  const text = await tools.text("commitTransaction", { transactionId });
  expect(text).toContain("build output of lib/tsconfig.json, older than its sources");
  expect(text).not.toMatch(/^Errors: 0 introduced/m);
}, 240_000);
