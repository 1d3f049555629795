// An edit's error delta checked by the language's own checker (src/services/diagnostics/edit-check.ts)
// with the real go vet: an edit that breaks other packages or files the language server was not
// asked about is never "0 introduced" (pyright's CLI over files outside its include is shown end to
// end in test/e2e/lsp-checker-delta.test.ts, by a rename and by commits); go runs in the
// environment that keeps it from running programs, so a cgo package is not compiled with the C
// compiler. TypeScript's compiler
// (tsgo) checks every tsconfig project holding a file the edit may break: in a solution-style
// repository, the spec project the server was not asked about; and writes nothing doing it.
import { spawnSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditOutcome } from "../../../src/lsp/apply-edit.ts";
import { languageEditCheck } from "../../../src/services/diagnostics/edit-check.ts";
import { languageChecker, runLanguageCheck } from "../../../src/services/diagnostics/language-check.ts";
import { goRepo, solutionTsRepo } from "../../fixtures/lsp-repos.ts";
import { missingProgram } from "../../helpers/missing-program.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { TSGO } from "../../helpers/lsp-repo-checks.ts";

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-edit-check-");
});
afterAll(async () => {
  await temp.remove();
});

/** What a written edit's outcome looks like before the checker's part: the server found nothing. */
function writtenOutcome(): EditOutcome {
  return { files: [], introduced: [], fixed: [], checkedFiles: 1, notChecked: 0, late: [], verified: true, written: true, digest: "0" };
}

/** Writes `file` with `from` replaced by `to`, as a partial rename would. */
async function rewrite(root: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(root, file), "utf8");
  await writeFile(join(root, file), text.replace(from, to));
}

const noGo = missingProgram("go", ["version"]);
describe.skipIf(noGo !== undefined)("go vet after an edit", () => {
  it("finds the packages (and the tests) an edit of another one broke, and counts them introduced", { timeout: 120_000 }, async () => {
    const repo = goRepo();
    // A cgo package: with cgo on, go vet would run the C compiler over its preamble, which fails.
    repo.files["native/native.go"] = 'package native\n\n// #error the C compiler ran\nimport "C"\n\nfunc One() int { return 1 }\n';
    const root = await temp.make("go", repo.files);
    const ctx = await makeToolContext(root);
    const vet = languageChecker("go");
    if (vet === undefined) throw new Error("no checker for go");
    expect(await runLanguageCheck(ctx, vet, { files: [], cwd: "" })).toMatchObject({
      checker: "go vet",
      errors: [],
      files: 0,
      notChecked: 0,
    });
    const check = languageEditCheck(ctx, { languageId: "go", projectRoot: "", files: ["core/core.go"] });
    if (check === undefined) throw new Error("no checker for go");
    await check.beforeWrite();
    await rewrite(root, "core/core.go", "func ParseFlag(", "func ParseFlg(");
    const outcome = writtenOutcome();
    await check.settle(outcome);
    expect(outcome.checks).toEqual([{ checker: "go vet", scope: "the module", introduced: 5 }]);
    expect(outcome.introduced.map((e) => e.file).sort()).toEqual([
      "cmd0/cmd.go",
      "cmd1/cmd.go",
      "cmd2/cmd.go",
      "cmd3/cmd.go",
      "core/core_test.go",
    ]);
    expect(String(outcome.introduced[0]?.diagnostic.message)).toMatch(/ParseFlag/);
  });
});

describe.skipIf(noGo !== undefined)("a checker run inside a call", () => {
  it("stops before the call's time limit and says that limit, not its own, left the files unchecked", { timeout: 60_000 }, async () => {
    const root = await temp.make("go-deadline", goRepo().files);
    const vet = languageChecker("go");
    if (vet === undefined) throw new Error("no checker for go");
    // The call has no time left: the run is cut at once, and the check says what to do.
    const late = { ...(await makeToolContext(root)), deadline: Date.now() };
    expect(await runLanguageCheck(late, vet, { files: ["core/core.go"], cwd: "" })).toMatchObject({
      failed: "the call's time limit came before it finished (raise --timeout for projects this large)",
    });
    // With time left, the same run checks the module.
    const inTime = { ...(await makeToolContext(root)), deadline: Date.now() + 120_000 };
    expect(await runLanguageCheck(inTime, vet, { files: ["core/core.go"], cwd: "" })).toMatchObject({ checker: "go vet", errors: [] });
  });
});

describe.skipIf(noGo !== undefined)("go vet after an edit, per module", () => {
  it("runs from each edited file's module root, once per module, where the workspace root is no module (go.work)", {
    timeout: 120_000,
  }, async () => {
    const root = await temp.make("go-modules", {
      "go.work": "go 1.19\n\nuse (\n\t./lib\n\t./svc\n)\n",
      "lib/go.mod": "module example.com/lib\n\ngo 1.19\n",
      "lib/lib.go": "package lib\n\nfunc Twice(n int) int { return n * 2 }\n",
      "svc/go.mod": "module example.com/svc\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n",
      "svc/main.go": 'package main\n\nimport "example.com/lib"\n\nfunc main() { println(lib.Twice(2)) }\n',
      "scratch/loose.go": "package scratch\n",
    });
    const ctx = await makeToolContext(root);
    const check = languageEditCheck(ctx, { languageId: "go", projectRoot: "", files: ["lib/lib.go", "svc/main.go", "scratch/loose.go"] });
    if (check === undefined) throw new Error("no checker for go");
    expect(await check.usable()).toBe(true);
    await rewrite(root, "lib/lib.go", "Twice(n int) int { return n * 2 }", "Twice(n string) string { return n + n }");
    const outcome = writtenOutcome();
    await check.settle(outcome);
    // scratch/ is under no go.mod: not checked, and said so.
    expect(outcome.checks).toEqual([{ checker: "go vet", scope: "2 modules (lib, svc) (1 more not checked)", introduced: 1 }]);
    expect(outcome.introduced.map((e) => `${e.file}:${e.diagnostic.range.start.line + 1}`)).toEqual(["svc/main.go:5"]);
    expect(String(outcome.introduced[0]?.diagnostic.message)).toMatch(/cannot use 2/);
  });
});

describe("TypeScript's compiler after an edit of a JavaScript file", () => {
  it("checks a JavaScript file the project checks (checkJs), and counts one no project holds as not checked", {
    timeout: 60_000,
  }, async () => {
    const root = await temp.make("js-checked", {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { allowJs: true, checkJs: true, noEmit: true, strict: true, module: "nodenext" },
        include: ["src"],
      }),
      "package.json": JSON.stringify({ type: "module" }),
      "src/math.js": "/** @param {number} n */\nexport function twice(n) {\n  return n * 2;\n}\n",
      "src/use.mjs": 'import { twice } from "./math.js";\n\nexport const four = twice(2);\n',
      "scripts/tool.js": "export const tool = 1;\n",
    });
    const check = languageEditCheck(await makeToolContext(root), {
      languageId: "javascript",
      projectRoot: "",
      files: ["src/math.js", "src/use.mjs", "scripts/tool.js"],
    });
    if (check === undefined) throw new Error("no checker for javascript");
    await check.beforeWrite();
    await rewrite(root, "src/math.js", "@param {number} n", "@param {string} n");
    const outcome = writtenOutcome();
    await check.settle(outcome);
    expect(outcome.checks).toEqual([
      { checker: "tsgo (CLI)", scope: "1 tsconfig project (tsconfig.json) (1 more not checked)", introduced: 2 },
    ]);
    // The multiplication in the edited file, and the call in the one that imports it.
    expect(outcome.introduced.map((e) => `${e.file}:${e.diagnostic.range.start.line + 1}`).sort()).toEqual([
      "src/math.js:3",
      "src/use.mjs:3",
    ]);
  });
});

describe("TypeScript's compiler after an edit, per tsconfig project", () => {
  it("finds the spec project's errors an edit of the build project made, covers the files it was given, and writes nothing", {
    timeout: 120_000,
  }, async () => {
    const repo = solutionTsRepo(2).files;
    // A config that asks for build info and a trace outside the workspace: the checks write neither there.
    const outside = await temp.make("ts-outside", { "keep.txt": "" });
    const specConfig = JSON.parse(repo["tsconfig.spec.json"] ?? "{}") as { compilerOptions?: Record<string, unknown> };
    specConfig.compilerOptions = {
      ...specConfig.compilerOptions,
      incremental: true,
      tsBuildInfoFile: join(outside, "spec.tsbuildinfo"),
      generateTrace: join(outside, "trace"),
    };
    const root = await temp.make("ts", { ...repo, "tsconfig.spec.json": JSON.stringify(specConfig) });
    const ctx = await makeToolContext(root);
    const listing = async () => (await readdir(root, { recursive: true })).sort();
    const files = await listing();
    const check = languageEditCheck(ctx, {
      languageId: "typescript",
      projectRoot: "",
      files: ["src/testing.ts", "src/routes/route0.test.ts", "src/routes/route1.test.ts"],
    });
    if (check === undefined) throw new Error("no checker for typescript");
    expect(await check.usable()).toBe(true);
    // Every test calls assertEqual with two arguments; the edit (in the build project) requires a third.
    await rewrite(root, "src/testing.ts", "b: unknown)", "b: unknown, what: string)");
    const outcome = { ...writtenOutcome(), notChecked: 2, notCheckedFiles: ["test/app.test.ts", "README.md"] };
    await check.settle(outcome);
    // Before this test's own compile below, which follows the config.
    expect(await readdir(outside)).toEqual(["keep.txt"]);
    expect(outcome.checks).toEqual([
      { checker: "tsgo (CLI)", scope: "2 tsconfig projects (tsconfig.build.json, tsconfig.spec.json)", introduced: 7, coveredUnchecked: 1 },
    ]);
    // test/app.test.ts was past the server's bound: the compiler checked it (its 3 calls), README.md it could not.
    expect(outcome).toMatchObject({ notChecked: 1, notCheckedFiles: ["README.md"] });
    expect(outcome.introduced.map((e) => e.file).sort()).toEqual([
      "src/routes/route0.test.ts",
      "src/routes/route0.test.ts",
      "src/routes/route1.test.ts",
      "src/routes/route1.test.ts",
      "test/app.test.ts",
      "test/app.test.ts",
      "test/app.test.ts",
    ]);
    expect(String(outcome.introduced[0]?.diagnostic.message)).toMatch(/Expected 3 arguments, but got 2/);
    // The spec project's own compile agrees; and the checks left no emit, and no .tsbuildinfo behind.
    const spec = spawnSync(TSGO, ["-p", "tsconfig.spec.json", "--noEmit", "--pretty", "false"], { cwd: root, encoding: "utf8" });
    expect(spec.stdout.match(/error TS2554/g)?.length, spec.stdout).toBe(7);
    expect(await listing()).toEqual(files);
  });

  it("says nothing where no tsconfig holds the files, and names the edit's files no project holds", { timeout: 60_000 }, async () => {
    const bare = await makeToolContext(await temp.make("ts-bare", { "a.ts": "export const a: number = 1;\n" }));
    const none = languageEditCheck(bare, { languageId: "typescript", projectRoot: "", files: ["a.ts"] });
    expect(await none?.usable()).toBe(false);
    const outcome = writtenOutcome();
    await none?.settle(outcome);
    expect(outcome.checks).toBeUndefined();
    const root = await temp.make("ts-outside", {
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
      "src/a.ts": "export const a: number = 1;\n",
      "scripts/b.ts": "export const b: number = 2;\n",
    });
    const outside = languageEditCheck(await makeToolContext(root), { languageId: "typescript", projectRoot: "", files: ["scripts/b.ts"] });
    await outside?.settle(outcome);
    expect(outcome.checks).toEqual([
      { checker: "tsgo (CLI)", scope: "its tsconfig projects", introduced: 0, failed: "no tsconfig project holds the edited files" },
    ]);
  });

  it("lists the programs first where there are more candidate projects, and checks only those holding the files", {
    timeout: 60_000,
  }, async () => {
    const pkg = (name: string) => ({
      [`packages/${name}/tsconfig.json`]: JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "nodenext" },
        include: ["src"],
      }),
      [`packages/${name}/src/${name}.ts`]: `export const ${name} = 1;\n`,
    });
    const root = await temp.make("ts-monorepo", {
      "tsconfig.json": JSON.stringify({ files: [], references: ["a", "b", "c", "d"].map((n) => ({ path: `./packages/${n}` })) }),
      ...pkg("a"),
      ...pkg("b"),
      ...pkg("c"),
      ...pkg("d"),
      "packages/a/src/x.ts": "export function twice(n: number): number {\n  return n * 2;\n}\n",
      "packages/b/src/y.ts": 'import { twice } from "../../a/src/x.js";\n\nexport const four: number = twice(2);\n',
    });
    const check = languageEditCheck(await makeToolContext(root), {
      languageId: "typescript",
      projectRoot: "",
      files: ["packages/a/src/x.ts", "packages/b/src/y.ts"],
    });
    await check?.beforeWrite();
    await rewrite(root, "packages/a/src/x.ts", "(n: number): number", "(n: string): string");
    const outcome = writtenOutcome();
    await check?.settle(outcome);
    expect(outcome.checks).toEqual([
      { checker: "tsgo (CLI)", scope: "2 tsconfig projects (packages/a/tsconfig.json, packages/b/tsconfig.json)", introduced: 4 },
    ]);
    expect(outcome.introduced.map((e) => `${e.file}:${e.diagnostic.range.start.line + 1}`).sort()).toEqual([
      "packages/a/src/x.ts:2",
      "packages/a/src/x.ts:2",
      "packages/b/src/y.ts:3",
      "packages/b/src/y.ts:3",
    ]);
  });
});
