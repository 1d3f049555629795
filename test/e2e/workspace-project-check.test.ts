// Whole-workspace and directory getDiagnostics of TypeScript through the compiler, one tsgo run per
// tsconfig project (src/services/diagnostics/project-checkers.ts), on a solution-style fixture
// (test/fixtures/lsp-repos.ts) whose spec project is stricter than its build project: an unused
// local in src/ is an error only in the spec project's program, which is what the project's CI
// (`tsc -b`) fails on and what a language server, answering each file from the one project it puts
// the file in, never reports. Also: a directory runs only the projects with files in it, progress
// per project, a spent budget names the projects it left, a reference outside the workspace is
// named, the config's language-service plugin is never loaded, and nothing is written (a composite
// project's build info, a config's trace directory).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkProjects } from "../../src/services/diagnostics/project-checkers.ts";
import { filesAt, solutionTsRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import { makeToolContext } from "../helpers/tool-context.ts";

interface Result {
  diagnostics: { file: string; line: number; severity: string; code?: string; message: string; source: string }[];
  counts: { error: number };
  sources: string[];
  skipped: { source: string; reason: string }[];
  partial?: string;
}

const MARKER = "plugin-was-loaded";

function fixture(): Record<string, string> {
  const repo = solutionTsRepo(6);
  const files = { ...repo.files };
  // The spec project is stricter than the build project: src/context.ts's unused local is an error in its program only.
  const spec = JSON.parse(files["tsconfig.spec.json"] ?? "{}");
  spec.compilerOptions.noUnusedLocals = true;
  // A language-service plugin: an editor's server may load it, the command-line compiler must not.
  spec.compilerOptions.plugins = [{ name: "marker-plugin" }];
  // A config that would have the compiler write trace files (the build project, composite, would write its build info).
  spec.compilerOptions.generateTrace = "./trace-out";
  files["tsconfig.spec.json"] = JSON.stringify(spec);
  files["node_modules/marker-plugin/package.json"] = JSON.stringify({ name: "marker-plugin", main: "index.js" });
  files["node_modules/marker-plugin/index.js"] =
    `require("node:fs").writeFileSync(require("node:path").join(__dirname, "../../${MARKER}"), "loaded");\nmodule.exports = () => ({ create: (info) => info.languageService });\n`;
  files["src/context.ts"] = (files["src/context.ts"] ?? "").replace(
    "text(value: string): string {",
    "text(value: string): string {\n    const unused = 1;",
  );
  // A test with a type error of its own, and the solution naming a project outside the workspace.
  files["src/routes/route1.test.ts"] = `${files["src/routes/route1.test.ts"]}export const wrong: number = "route1";\n`;
  const root = JSON.parse(files["tsconfig.json"] ?? "{}");
  root.references.push({ path: "../elsewhere" });
  files["tsconfig.json"] = JSON.stringify(root);
  // A project that imports a referenced project's build output, which is not built: the compiler
  // cannot check it as the editor does (TS6305), so the language server checks its files.
  files["app/tsconfig.json"] = JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", noEmit: true, types: [] },
    include: ["."],
    references: [{ path: "../tsconfig.build.json" }],
  });
  files["app/main.ts"] = 'import { Context } from "../src/context.js";\nexport const n: number = new Context("x").body;\n';
  // Benchmarks with their own project and an error of their own.
  files["benchmarks/tsconfig.json"] = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["."] });
  files["benchmarks/bench0.ts"] = 'export const b0: number = "not a number";\n';
  return files;
}

let fx: LspFixture;
beforeAll(async () => {
  fx = await lspFixture({});
  await writeFiles(fx.root, filesAt({ files: fixture(), symbols: [], extensions: [".ts"] }, fx.root));
}, 60_000);
afterAll(async () => {
  await fx?.stop();
});

/** The TypeScript files' errors as `file:line source` (the JSON server may have words about the configs). */
const errors = (r: Result) =>
  r.diagnostics.filter((d) => d.severity === "error" && d.file.endsWith(".ts")).map((d) => `${d.file}:${d.line} ${d.source}`);

it("checks every project of the solution with the compiler, the spec project's own errors included, with progress per project", async () => {
  const result = await fx.tools.call("getDiagnostics", { maxResults: 500 }, { progressToken: "ws" });
  expect(result.isError, JSON.stringify(result)).toBeUndefined();
  const all = result.structuredContent as unknown as Result;
  expect(all.sources.slice(0, 3)).toEqual([
    "tsgo -p tsconfig.build.json",
    "tsgo -p tsconfig.spec.json",
    "tsgo -p benchmarks/tsconfig.json",
  ]);
  expect(
    errors(all)
      .filter((e) => !e.startsWith("app/"))
      .sort(),
  ).toEqual([
    "benchmarks/bench0.ts:1 tsgo (benchmarks/tsconfig.json)",
    "src/context.ts:4 tsgo (tsconfig.spec.json)",
    "src/routes/route1.test.ts:14 tsgo (tsconfig.spec.json)",
  ]);
  // The project the compiler could not check as the editor does: named, and its file checked by the server.
  expect(all.skipped).toContainEqual({ source: "tsgo -p app/tsconfig.json", reason: expect.stringContaining("TS6305") });
  expect(all.diagnostics.filter((d) => d.file === "app/main.ts").map((d) => [d.line, d.source.startsWith("tsgo (")])).toEqual([[2, false]]);
  expect(all.diagnostics.find((d) => d.file === "src/context.ts")).toMatchObject({
    code: "TS6133",
    message: expect.stringContaining("'unused'"),
  });
  // The project's own code first (app/ and src/), then its tests, then benchmarks, whatever the names sort as.
  const order = all.diagnostics.filter((d) => d.severity === "error" && d.file.endsWith(".ts")).map((d) => d.file);
  expect(order).toEqual(["app/main.ts", "src/context.ts", "src/routes/route1.test.ts", "benchmarks/bench0.ts"]);
  expect(all.skipped).toContainEqual({
    source: "tsgo",
    reason: expect.stringMatching(/tsconfig\.json references .*elsewhere.*outside the workspace/),
  });
  expect(all.partial).toBeUndefined();
  const messages = fx.tools.progress().map((p) => String(p.message));
  expect(messages).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^tsgo -p tsconfig\.build\.json .*project 1 of 4/),
      expect.stringMatching(/^tsgo -p tsconfig\.spec\.json /),
    ]),
  );
  expect(existsSync(join(fx.root, MARKER))).toBe(false);
  // The check wrote nothing into the workspace: no build info of the composite build project, no trace.
  expect(
    readdirSync(fx.root, { recursive: true }).filter((f) => String(f).endsWith(".tsbuildinfo") || String(f).startsWith("trace-out")),
  ).toEqual([]);
}, 120_000);

it("a directory runs only the projects with files in it and reports only its files", async () => {
  const bench = await fx.tools.data<Result>("getDiagnostics", { file: "benchmarks" });
  expect(bench.sources.filter((s) => s.startsWith("tsgo"))).toEqual(["tsgo -p benchmarks/tsconfig.json"]);
  expect(errors(bench)).toEqual(["benchmarks/bench0.ts:1 tsgo (benchmarks/tsconfig.json)"]);
  const routes = await fx.tools.data<Result>("getDiagnostics", { file: "src/routes" });
  expect(routes.sources.filter((s) => s.startsWith("tsgo"))).toEqual(["tsgo -p tsconfig.build.json", "tsgo -p tsconfig.spec.json"]);
  expect(errors(routes)).toEqual(["src/routes/route1.test.ts:14 tsgo (tsconfig.spec.json)"]);
}, 120_000);

it("past the call's deadline, names every project it did not check and reports nothing as clean", async () => {
  const ctx = await makeToolContext(fx.root);
  const spent = await checkProjects(ctx, { under: undefined, deadline: Date.now() });
  expect(spent.sources).toEqual([]);
  expect(spent.checked.size).toBe(0);
  expect(spent.partial).toContain("tsconfig.build.json, app/tsconfig.json, tsconfig.spec.json, benchmarks/tsconfig.json");
}, 60_000);
