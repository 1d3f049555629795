// Which .clangd settings the bridge lets clangd obey (src/lsp/clangd-config-guard.ts), on real files:
// a database folder inside is obeyed, one outside (directly, by `..`, or through a symlink) is not,
// nor an external index server or file outside, nor flags that load code or write files, in a
// .clangd at any depth; a symlinked build/, or a symlinked index folder under a database folder a
// .clangd names, keeps the index in memory.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { guardClangdConfig } from "../../../src/lsp/clangd-config-guard.ts";

const ARGS = ["--background-index", "--log=error"];
const fs = createNodeRuntime().fs;
let base: string;
let count = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-clangd-guard-")));
  await mkdir(join(base, "outside"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh workspace with these files (a value of `{ link }` makes a symlink). */
async function workspace(files: Record<string, string | { link: string }>): Promise<string> {
  const root = join(base, `ws${++count}`);
  await mkdir(join(root, "build"), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    if (typeof content === "string") await writeFile(join(root, path), content);
    else await symlink(content.link, join(root, path));
  }
  return root;
}

describe("the .clangd guard", () => {
  it.each([
    ["no .clangd", {}],
    ["a database folder inside", { ".clangd": "CompileFlags:\n  CompilationDatabase: build\n" }],
    ["Ancestors, flow style", { ".clangd": "CompileFlags: {CompilationDatabase: Ancestors, Add: [-DX, -Wall]}\n" }],
    ["an external index file inside", { ".clangd": "Index:\n  External:\n    File: build/index.idx\n" }],
  ])("obeys %s", async (_name, files) => {
    const root = await workspace(files);
    expect(await guardClangdConfig(ARGS, root, fs)).toMatchObject({ args: ARGS, warnings: [] });
  });

  it("names the database folders the .clangd files name, for the watcher", async () => {
    const root = await workspace({ "src/.clangd": "CompileFlags:\n  CompilationDatabase: ../out/db\n" });
    expect((await guardClangdConfig(ARGS, root, fs)).databases).toEqual([join(root, "out/db")]);
  });

  it("keeps the index in memory when the index folder under a named database folder is a symlink", async () => {
    const root = await workspace({ ".clangd": "CompileFlags:\n  CompilationDatabase: out\n", "out/.cache": { link: "../../outside" } });
    const result = await guardClangdConfig(ARGS, root, fs);
    expect(result.args).toEqual(["--background-index=false", "--log=error"]);
    expect(result.warnings.join("\n")).toMatch(/out\/\.cache\/ is a symlink/);
  });

  it.each([
    ["a database folder outside by ..", { ".clangd": "CompileFlags:\n  CompilationDatabase: ../outside\n" }, /CompilationDatabase/],
    ["an absolute database folder", { ".clangd": 'CompileFlags:\n  CompilationDatabase: "/tmp"\n' }, /CompilationDatabase/],
    [
      "a database folder that is a symlink out",
      { db: { link: "../outside" }, ".clangd": "CompileFlags:\n  CompilationDatabase: db\n" },
      /outside the workspace/,
    ],
    [
      "a nested .clangd",
      { "src/deep/.clangd": "---\nIf:\n  PathMatch: .*\nCompileFlags:\n  CompilationDatabase: ../../../outside\n" },
      /src\/deep\/\.clangd/,
    ],
    ["an external index server", { ".clangd": "Index:\n  External:\n    Server: 127.0.0.1:1\n    MountPoint: .\n" }, /index server/],
    ["an external index file outside", { ".clangd": "Index:\n  External:\n    File: /etc/passwd\n" }, /external index file/],
    ["a plugin flag", { ".clangd": "CompileFlags:\n  Add: [-fplugin=/tmp/p.so]\n" }, /-fplugin/],
    ["a dependency file flag", { ".clangd": "CompileFlags:\n  Add:\n    - -MF\n    - /tmp/out.d\n" }, /-MF/],
  ])("turns project config off for %s, saying which file and why", async (_name, files, why) => {
    const root = await workspace(files);
    const result = await guardClangdConfig(ARGS, root, fs);
    expect(result.args).toEqual([...ARGS, "--enable-config=false"]);
    expect(result.warnings.join("\n")).toMatch(why);
  });

  it("keeps the index in memory when build/ is a symlink", async () => {
    const root = await workspace({});
    await rm(join(root, "build"), { recursive: true });
    await symlink(join(base, "outside"), join(root, "build"));
    const result = await guardClangdConfig(ARGS, root, fs);
    expect(result.args).toEqual(["--background-index=false", "--log=error"]);
    expect(result.warnings.join("\n")).toMatch(/build\/ is a symlink/);
  });
});
