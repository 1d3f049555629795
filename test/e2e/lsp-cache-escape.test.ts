// Red team: a language server's on-disk cache must not leave the workspace. clangd's background index
// writes its shards into `.cache/clangd/index` beside compile_commands.json and follows a symlinked
// `.cache` anywhere; the bridge starts it without the on-disk index then. The control workspace
// (a real `.cache`) shows the index is written at all, so the attacked one's empty target means
// something. findReferences waits for clangd's indexing progress to end before it answers.
import { mkdir, mkdtemp, readdir, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const C_FILES = {
  "util.h": ["#ifndef UTIL_H", "#define UTIL_H", "int add(int a, int b);", "#endif", ""].join("\n"),
  "util.c": ['#include "util.h"', "", "int add(int a, int b) {", "  return a + b;", "}", ""].join("\n"),
  "main.c": ['#include "util.h"', "", "int main(void) {", "  return add(1, 2);", "}", ""].join("\n"),
};

let outside: string;
const fixtures: LspFixture[] = [];
beforeAll(async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), "cib-clangd-outside-")));
});
afterAll(async () => {
  for (const fx of fixtures) await fx.stop();
  await rm(outside, { recursive: true, force: true });
});

async function cProject(): Promise<LspFixture> {
  const fx = await lspFixture(C_FILES);
  fixtures.push(fx);
  // The database names the files, so the background index takes them all at its first load.
  const db = ["util.c", "main.c"].map((file) => ({ directory: fx.root, file, arguments: ["cc", "-std=c11", "-c", file] }));
  await fx.write("compile_commands.json", JSON.stringify(db));
  return fx;
}

async function indexFiles(dir: string): Promise<string[]> {
  return readdir(dir, { recursive: true }).catch(() => []);
}

/** Resolves once clangd has written an index shard under `dir`; no shard within the deadline fails. */
async function shardsWritten(dir: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await indexFiles(dir)).some((f) => f.endsWith(".idx"))) {
    if (Date.now() > deadline) throw new Error(`clangd wrote no index shard under ${dir} in 90 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const noClangd = missingProgram("clangd", ["--version"]);
describe.skipIf(noClangd !== undefined)(`clangd's background index${noClangd === undefined ? "" : ` (skipped: ${noClangd})`}`, () => {
  // Each attacked workspace runs beside a control one with a real .cache, opened the same way at the
  // same time: once the control's shards are on disk, the attacked clangd would have written too.
  for (const [name, attack] of [
    [".cache", async (root: string) => symlink(outside, join(root, ".cache"))],
    [
      ".cache/clangd",
      async (root: string) => {
        await mkdir(join(root, ".cache"));
        await symlink(outside, join(root, ".cache/clangd"));
      },
    ],
  ] as const) {
    it(`never writes through a symlinked ${name} to outside`, { timeout: 180_000 }, async () => {
      const control = await cProject();
      const attacked = await cProject();
      await attack(attacked.root);
      const open = (fx: LspFixture) => fx.tools.text("getHover", { file: "main.c", line: 4, symbol: "add" });
      await Promise.all([open(control), open(attacked)]);
      await shardsWritten(join(control.root, ".cache/clangd/index"));
      await open(attacked);
      await Promise.all([control.lsp.stop(), attacked.lsp.stop()]);
      expect(await indexFiles(outside)).toEqual([]);
    });
  }
});
