// Which files are opened so that TypeScript's servers load every project of a solution-style
// tsconfig before a whole-project answer: one per referenced project (references followed, a
// folder meaning its tsconfig.json), found through the project's files, include and exclude; a
// project that cannot be loaded is named.
import { describe, expect, it } from "vitest";
import { solutionFiles } from "../../../src/lsp/solution-projects.ts";

/** Configs and source files of a made-up repository at /r. */
function repo(files: Record<string, unknown>) {
  const paths = Object.keys(files).map((p) => `/r/${p}`);
  return {
    readText: async (path: string) => {
      const value = files[path.slice(3)];
      return value === undefined ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
    findFile: async (dir: string, wanted: (rel: string) => boolean) =>
      paths.filter((p) => p.startsWith(`${dir}/`)).find((p) => wanted(p.slice(dir.length + 1))),
  };
}

describe("solutionFiles", () => {
  it("opens one file of the build project and one test of the spec project", async () => {
    const deps = repo({
      "tsconfig.json": { files: [], references: [{ path: "./tsconfig.build.json" }, { path: "./tsconfig.spec.json" }] },
      "tsconfig.build.json": { include: ["src"], exclude: ["src/**/*.test.ts"] },
      "tsconfig.spec.json": { include: ["src/**/*.test.ts", "test"] },
      "src/app.test.ts": "",
      "src/app.ts": "",
      "test/e2e.ts": "",
    });
    expect(await solutionFiles("/r", deps)).toEqual({ files: ["/r/src/app.ts", "/r/src/app.test.ts"] });
  });

  it("follows references of references, a folder meaning its tsconfig.json, each project once", async () => {
    const deps = repo({
      "tsconfig.json": '// solution\n{ "files": [], "references": [{ "path": "packages/a" }, { "path": "packages/b" },], }',
      "packages/a/tsconfig.json": { references: [{ path: "../b" }] },
      "packages/a/index.ts": "",
      "packages/b/tsconfig.json": { files: ["main.ts"] },
      "packages/b/main.ts": "",
    });
    expect(await solutionFiles("/r", deps)).toEqual({ files: ["/r/packages/a/index.ts", "/r/packages/b/main.ts"] });
  });

  it("names the projects it cannot load, and leaves references outside the root alone", async () => {
    const deps = repo({
      "tsconfig.json": { references: [{ path: "./gone.json" }, { path: "./empty.json" }, { path: "../outside" }] },
      "empty.json": { include: ["src"] },
      "docs/readme.md": "",
    });
    expect(await solutionFiles("/r", deps)).toEqual({
      files: [],
      missing: "projects not loaded: gone.json (unreadable), empty.json (no file of it found)",
    });
  });

  it("loads a referenced project with no files of its own but an include it extends (no solution config, as the compiler reads it)", async () => {
    const deps = repo({
      "tsconfig.json": { files: [], references: [{ path: "./packages/a" }] },
      "packages/a/tsconfig.base.json": { include: ["src"] },
      "packages/a/tsconfig.json": { extends: "./tsconfig.base.json", files: [] },
      "packages/a/src/index.ts": "",
    });
    expect(await solutionFiles("/r", deps)).toEqual({ files: ["/r/packages/a/src/index.ts"] });
  });

  it("has nothing to do for a config without references", async () => {
    expect(await solutionFiles("/r", repo({ "tsconfig.json": { include: ["src"] }, "src/a.ts": "" }))).toEqual({ files: [] });
  });

  it("a server of the whole workspace folder loads every package under it: each tsconfig, a jsconfig's JavaScript, what they reference", async () => {
    const deps = repo({
      "package.json": {},
      "packages/a/tsconfig.json": { compilerOptions: { strict: true }, references: [{ path: "../shared" }] },
      "packages/a/src/a.ts": "",
      "packages/b/tsconfig.json": { include: ["lib"] },
      "packages/b/lib/b.ts": "",
      "packages/js/jsconfig.json": {},
      "packages/js/index.js": "",
      "packages/shared/tsconfig.json": { files: ["index.ts"] },
      "packages/shared/index.ts": "",
    });
    const configsUnder = async (dir: string) => ({
      configs: ["packages/a/tsconfig.json", "packages/b/tsconfig.json", "packages/js/jsconfig.json"].map((c) => `${dir}/${c}`),
    });
    expect(await solutionFiles("/r", { ...deps, configsUnder })).toEqual({
      files: ["/r/packages/a/src/a.ts", "/r/packages/b/lib/b.ts", "/r/packages/js/index.js", "/r/packages/shared/index.ts"],
    });
  });

  it("a solution config found under the folder opens nothing of its own, only the projects it references", async () => {
    const deps = repo({
      "packages/x/tsconfig.json": { files: [], references: [{ path: "./tsconfig.build.json" }] },
      "packages/x/tsconfig.build.json": { include: ["src"] },
      "packages/x/scripts/tool.ts": "",
      "packages/x/src/app.ts": "",
    });
    expect(await solutionFiles("/r", { ...deps, configsUnder: async (dir) => ({ configs: [`${dir}/packages/x/tsconfig.json`] }) })).toEqual(
      {
        files: ["/r/packages/x/src/app.ts"],
      },
    );
  });

  it("a search for configs cut short makes the answer partial, saying so", async () => {
    const deps = repo({ "packages/a/tsconfig.json": {}, "packages/a/a.ts": "" });
    const configsUnder = async (dir: string) => ({ configs: [`${dir}/packages/a/tsconfig.json`], cut: "the folder (too slow)" });
    expect(await solutionFiles("/r", { ...deps, configsUnder })).toEqual({
      files: ["/r/packages/a/a.ts"],
      missing: "projects not loaded: any under the folder (too slow)",
    });
  });
});
