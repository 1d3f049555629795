// Which files a tsconfig holds as its own, as the compiler chooses its root files: `files`,
// `include` (a folder meaning everything in it; everything when neither is set) and `exclude`
// (node_modules and the like when unset), inherited through `extends` with each list relative to
// the config that sets it; a solution config holds none; references are named, outside ones too.
import { describe, expect, it } from "vitest";
import { readTsProject } from "../../../src/lsp/solution-projects.ts";

function configs(files: Record<string, unknown>) {
  return {
    readText: async (path: string) => {
      const value = files[path.slice(3)];
      return value === undefined ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

describe("readTsProject", () => {
  it("takes include and exclude, a folder meaning everything under it", async () => {
    const p = await readTsProject(
      "/r/tsconfig.build.json",
      configs({ "tsconfig.build.json": { include: ["src"], exclude: ["src/**/*.test.ts"] } }),
    );
    expect(p?.solution).toBe(false);
    expect(p?.owns("/r/src/a/b.ts")).toBe(true);
    expect(p?.owns("/r/src/a/b.test.ts")).toBe(false);
    expect(p?.owns("/r/test/c.ts")).toBe(false);
    expect(p?.owns("/r/src/readme.md")).toBe(false);
  });

  it("holds everything under its folder but node_modules when it sets neither files nor include", async () => {
    const p = await readTsProject("/r/bench/tsconfig.json", configs({ "bench/tsconfig.json": { compilerOptions: {} } }));
    expect(p?.owns("/r/bench/x.ts")).toBe(true);
    expect(p?.owns("/r/bench/deep/y.tsx")).toBe(true);
    expect(p?.owns("/r/bench/node_modules/z/index.d.ts")).toBe(false);
    expect(p?.owns("/r/src/x.ts")).toBe(false);
  });

  it("holds only its files when it lists files and no include; a solution config holds none", async () => {
    const listed = await readTsProject("/r/tsconfig.json", configs({ "tsconfig.json": { files: ["main.ts"] } }));
    expect(listed?.owns("/r/main.ts")).toBe(true);
    expect(listed?.owns("/r/other.ts")).toBe(false);
    const solution = await readTsProject(
      "/r/tsconfig.json",
      configs({ "tsconfig.json": { files: [], references: [{ path: "./tsconfig.spec.json" }, { path: "../shared" }] } }),
    );
    expect(solution?.solution).toBe(true);
    expect(solution?.owns("/r/main.ts")).toBe(false);
    expect(solution?.references).toEqual(["/r/tsconfig.spec.json", "/shared/tsconfig.json"]);
  });

  it("inherits include through extends, relative to the config that sets it, and reads JSON with comments", async () => {
    const p = await readTsProject(
      "/r/packages/a/tsconfig.json",
      configs({
        "packages/a/tsconfig.json": '{ // a package\n "extends": "../../tsconfig.base", "compilerOptions": {}, }',
        "tsconfig.base.json": { include: ["packages/*/src"], exclude: ["**/*.spec.ts"] },
      }),
    );
    expect(p?.owns("/r/packages/b/src/x.ts")).toBe(true);
    expect(p?.owns("/r/packages/a/src/x.spec.ts")).toBe(false);
    expect(p?.owns("/r/packages/a/test/x.ts")).toBe(false);
  });

  it("is undefined for a config that is missing or not JSON", async () => {
    expect(await readTsProject("/r/tsconfig.json", configs({}))).toBeUndefined();
    expect(await readTsProject("/r/tsconfig.json", configs({ "tsconfig.json": "{ nope" }))).toBeUndefined();
  });
});
