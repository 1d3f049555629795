// .gitignore in the built-in walk, and the rules themselves, file by file. That the walk lists what
// ripgrep lists on the same tree runs rg: test/integration/services/gitignore-rg.test.ts.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchRules, parseGitignore } from "../../../src/lib/ignore/gitignore-rules.ts";
import { listFiles } from "../../../src/services/search/file-list.ts";
import { writeIgnoreTree } from "../../fixtures/ignore-tree.ts";
import { makeToolContext, type TestToolContext } from "../../helpers/tool-context.ts";

let root: string;
let ctx: TestToolContext;

beforeAll(async () => {
  root = join(await realpath(await mkdtemp(join(tmpdir(), "cib-ignore-"))), "ws");
  await mkdir(root);
  await writeIgnoreTree(root);
  ctx = await makeToolContext(root, { executables: ["rg"] });
});

afterAll(async () => {
  await rm(join(root, ".."), { recursive: true, force: true });
});

describe("the built-in walk and rg --files", () => {
  it("apply the rules as git does", async () => {
    const { files } = await listFiles(ctx, ".", { includeHidden: false, gitignore: true, builtIn: true });
    expect(files).toEqual([
      ".env",
      "bin.dat",
      "docs/a/b/c.md",
      "important.o",
      "keep.log",
      "nested/shallow.txt",
      "other/anch/sub/file.txt",
      "src/a.log",
      "src/main.ts",
      "src/sub/only-here.ts",
      "src/top.txt",
      "src/with space é.ts",
      "vendor/lib/a.log",
      "vendor/lib/code.c",
      "{braces}",
    ]);
  });

  it("apply a parent's anchored rules to a subdirectory", async () => {
    const { files } = await listFiles(ctx, "anch", { includeHidden: false, gitignore: true, builtIn: true });
    expect(files).toEqual([]);
  });
});

describe("gitignore rules", () => {
  const ignored = (text: string, path: string, isDir = false) => matchRules(parseGitignore(text), path, { isDir });
  it.each([
    ["*.log", "a/b.log", false, "ignore"],
    ["/top", "top", false, "ignore"],
    ["/top", "a/top", false, undefined],
    ["a/b", "a/b", false, "ignore"],
    ["a/b", "x/a/b", false, undefined],
    ["dir/", "dir", false, undefined],
    ["dir/", "x/dir", true, "ignore"],
    ["**/gen", "a/b/gen", true, "ignore"],
    ["a/**/b", "a/b", false, "ignore"],
    ["a/**/b", "a/x/y/b", false, "ignore"],
    ["a/**", "a/x/y", false, "ignore"],
    ["a/**", "a", true, undefined],
    ["a**b", "a/b", false, undefined],
    ["a**b", "axxb", false, "ignore"],
    ["*.o\n!keep.o", "keep.o", false, "whitelist"],
    ["\\!bang", "!bang", false, "ignore"],
    ["\\#hash", "#hash", false, "ignore"],
    ["# comment", "# comment", false, undefined],
    ["{a,b}", "a", false, "ignore"],
    ["{a,b}", "{a,b}", false, undefined],
    ["space\\ ", "space ", false, "ignore"],
    ["trailing  ", "trailing", false, "ignore"],
    ["crlf\r\n", "crlf", false, "ignore"],
    ["[!a]x", "bx", false, "ignore"],
    ["[!a]x", "ax", false, undefined],
    ["?", "a/b", false, "ignore"],
    ["a?b", "a/b", false, undefined],
  ])("%j on %s (dir %s) -> %s", (text, path, isDir, expected) => {
    expect(ignored(text, path, isDir)).toBe(expected);
  });
});
