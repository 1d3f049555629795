// Which root a file gets, by its server's root policy, on a real directory tree: TypeScript's
// servers get the workspace folder for every package of a monorepo (one server finds each file's
// tsconfig itself), the others the nearest directory with one of their markers.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { projectRoot } from "../../../src/lsp/project-root.ts";
import { BUILT_IN_SERVERS, type ServerSpec } from "../../../src/lsp/server-specs.ts";

const fs = createNodeRuntime().fs;
const spec = (id: string) => BUILT_IN_SERVERS.find((s) => s.id === id) as ServerSpec;
let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "project-root-")));
  const files = [
    "package.json",
    "packages/a/package.json",
    "packages/a/tsconfig.json",
    "packages/a/src/a.ts",
    "packages/b/package.json",
    "packages/b/tsconfig.json",
    "packages/b/src/b.ts",
    "packages/js/package.json",
    "packages/js/index.js",
    "go/one/go.mod",
    "go/one/main.go",
    "go/two/go.mod",
    "go/two/main.go",
  ];
  for (const f of files) {
    await mkdir(dirname(join(root, f)), { recursive: true });
    await writeFile(join(root, f), "");
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("projectRoot", () => {
  for (const id of ["tsgo", "typescript-language-server"]) {
    it(`${id}: every package of a monorepo, with or without a tsconfig, has the workspace folder as its root`, async () => {
      const roots = await Promise.all(
        ["packages/a/src/a.ts", "packages/b/src/b.ts", "packages/js/index.js"].map((f) =>
          projectRoot(fs, `${root}/${f}`, { folder: root, spec: spec(id) }),
        ),
      );
      expect(roots).toEqual([root, root, root]);
    });
  }

  for (const id of ["vscode-json-language-server", "vscode-css-language-server", "vscode-html-language-server"]) {
    it(`${id}: one server for the folder, not one per package.json`, async () => {
      const roots = await Promise.all(
        ["packages/a/package.json", "packages/b/package.json"].map((f) =>
          projectRoot(fs, `${root}/${f}`, { folder: root, spec: spec(id) }),
        ),
      );
      expect(roots).toEqual([root, root]);
    });
  }

  it("gopls keeps a root per module, the nearest go.mod", async () => {
    const roots = await Promise.all(
      ["go/one/main.go", "go/two/main.go"].map((f) => projectRoot(fs, `${root}/${f}`, { folder: root, spec: spec("gopls") })),
    );
    expect(roots).toEqual([`${root}/go/one`, `${root}/go/two`]);
  });

  it("a marker policy never goes above the workspace folder", async () => {
    const folder = `${root}/packages/a`;
    const got = await projectRoot(fs, `${folder}/src/a.ts`, { folder, spec: { rootMarkers: ["go.mod"] } });
    expect(got).toBe(folder);
  });
});
