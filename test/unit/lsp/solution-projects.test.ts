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

  it("has nothing to do for a config without references", async () => {
    expect(await solutionFiles("/r", repo({ "tsconfig.json": { include: ["src"] }, "src/a.ts": "" }))).toEqual({ files: [] });
  });
});
