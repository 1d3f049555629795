// Red team: linters and formatters must never write through a symlink to outside the workspace. The
// workspace holds a fixable file and a symlinked file whose target (outside) is just as fixable;
// eslint, biome and prettier from this repo's node_modules run for real. `eslint --fix .` and
// `biome lint --write .` both follow such a link and rewrote the outside file; the bridge's
// fixAllLintErrors and formatters must fix the inside file and leave the outside one byte for byte.
import { readdir, readFile, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

const REPO = resolve(import.meta.dirname, "../..");
const FIXABLE = "let total = 1;\nconsole.log(total);\n";
const FIXED = "const total = 1;\nconsole.log(total);\n";

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-lint-escape-");
});
afterAll(async () => {
  await temp.remove();
});

/** A workspace with `files`, the repo's node_modules, src/a.js (fixable) and link.js -> outside. */
async function attacked(name: string, files: Record<string, string>): Promise<{ root: string; victim: string }> {
  const outside = await temp.make(`${name}-outside`, { "victim.js": FIXABLE, "sub/deep.js": FIXABLE });
  const root = await temp.make(name, { ...files, "src/a.js": FIXABLE });
  await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
  await symlink(join(outside, "victim.js"), join(root, "link.js"));
  await symlink(join(outside, "sub"), join(root, "linkdir"));
  return { root, victim: outside };
}

async function untouched(outside: string): Promise<void> {
  expect(await readFile(join(outside, "victim.js"), "utf8")).toBe(FIXABLE);
  expect(await readFile(join(outside, "sub/deep.js"), "utf8")).toBe(FIXABLE);
}

describe("fixAllLintErrors never writes through a symlink to outside", () => {
  it("eslint: fixes the workspace's file, names the symlinked one as not written", { timeout: 120_000 }, async () => {
    const { root, victim } = await attacked("eslint", {
      "package.json": JSON.stringify({ name: "e", type: "module", devDependencies: { eslint: "*" } }),
      "eslint.config.js": 'export default [{ files: ["**/*.js"], rules: { "prefer-const": "error" } }];\n',
    });
    const d = await dispatcher(root);
    const result = await d.data<{ sources: string[]; skipped: { source: string; reason: string }[] }>("fixAllLintErrors", {});
    expect(result.sources).toEqual(["eslint"]);
    expect(await readFile(join(root, "src/a.js"), "utf8")).toBe(FIXED);
    await untouched(victim);
    // eslint walked into link.js (it follows file links) and proposed a fix: the bridge refused to write it.
    expect(result.skipped.map((s) => s.reason).join("\n")).toMatch(/^link\.js: its fixes were not written/m);
    // Asked for the symlinked file by name, the jail refuses before eslint runs.
    await d.failure("fixAllLintErrors", { file: "link.js" });
    await untouched(victim);
  });

  it("biome: fixes piped text, which the bridge writes through the jail, never through the link", { timeout: 120_000 }, async () => {
    const { root, victim } = await attacked("biome", {
      "package.json": JSON.stringify({ name: "b", devDependencies: { "@biomejs/biome": "*" } }),
      "biome.json": JSON.stringify({ linter: { rules: { style: { useConst: "error" } } } }),
    });
    const d = await dispatcher(root);
    const result = await d.data<{ sources: string[] }>("fixAllLintErrors", { linter: "biome" });
    expect(result.sources).toEqual(["biome"]);
    expect(await readFile(join(root, "src/a.js"), "utf8")).toBe(FIXED);
    await untouched(victim);
    await d.failure("fixAllLintErrors", { linter: "biome", file: "link.js" });
    await d.failure("fixAllLintErrors", { linter: "biome", file: "linkdir/deep.js" });
    await untouched(victim);
  });

  const noRuff = missingProgram("ruff", ["--version"]);
  it.skipIf(noRuff !== undefined)(`ruff: the same on Python files${noRuff === undefined ? "" : ` (skipped: ${noRuff})`}`, async () => {
    const outside = await temp.make("ruff-outside", { "victim.py": "import os\n" });
    const root = await temp.make("ruff", { "ruff.toml": 'lint.select = ["F401"]\n', "a.py": "import os\n" });
    await symlink(join(outside, "victim.py"), join(root, "link.py"));
    const d = await dispatcher(root);
    await d.data("fixAllLintErrors", { linter: "ruff" });
    expect(await readFile(join(root, "a.py"), "utf8")).toBe("");
    expect(await readFile(join(outside, "victim.py"), "utf8")).toBe("import os\n");
  });
});

describe("getDiagnostics' checkers never write through a symlink to outside", () => {
  it("tsc: an incremental project's build info pointing through a symlink, and a trace directory outside, are not written", {
    timeout: 120_000,
  }, async () => {
    const outside = await temp.make("tsc-outside", { "keep.txt": "" });
    const root = await temp.make("tsc", {
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          types: [],
          incremental: true,
          tsBuildInfoFile: "info.tsbuildinfo",
          generateTrace: join(outside, "trace"),
        },
      }),
      "a.ts": 'const n: number = "x";\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    await symlink(join(outside, "written.tsbuildinfo"), join(root, "info.tsbuildinfo"));
    const d = await dispatcher(root);
    const result = await d.data<{ sources: string[]; diagnostics: { code: string }[] }>("getDiagnostics", {});
    expect(result.sources).toContain("tsc");
    expect(result.diagnostics.map((x) => x.code)).toContain("TS2322");
    expect(await readdir(outside)).toEqual(["keep.txt"]);
  });
});

describe("the formatters never write through a symlink to outside", () => {
  it("prettier: formatting the symlinked file is refused; the inside file is formatted", { timeout: 120_000 }, async () => {
    const { root, victim } = await attacked("prettier", {
      "package.json": JSON.stringify({ name: "p", devDependencies: { prettier: "*" } }),
    });
    const d = await dispatcher(root);
    for (const tool of ["formatDocument", "formatAndSave"]) {
      await d.failure(tool, { file: "link.js" });
      await d.failure(tool, { file: "linkdir/deep.js" });
    }
    await untouched(victim);
    expect(await d.text("formatAndSave", { file: "src/a.js" })).toMatch(/^(Formatted|.*already formatted)/);
  });
});
