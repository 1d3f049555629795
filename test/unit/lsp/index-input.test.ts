// Whether clangd's background index can come for a file: only a compile_commands.json in the file's
// folder, one above it, or their build/ (or a .clangd naming another database folder, while config
// is read) starts it; without one the answer is partial at once, naming what to make.
import { describe, expect, it } from "vitest";
import { clangdIndexMissing } from "../../../src/lsp/index-input.ts";
import type { FileStat } from "../../../src/ports/fs.ts";
import { fakeStat } from "../../helpers/fake-stat.ts";

const ARGS = ["--background-index", "--log=error"];

/** A stat and readFile over a made-up tree: path -> file content; folders are implied. */
function tree(files: Record<string, string>) {
  return {
    stat: async (path: string): Promise<FileStat> => {
      if (files[path] === undefined) throw new Error(`ENOENT: ${path}`);
      return fakeStat("file");
    },
    readFile: async (path: string) => new TextEncoder().encode(files[path] ?? ""),
  };
}

const missing = (files: Record<string, string>, args: readonly string[] = ARGS) =>
  clangdIndexMissing(tree(files), "/w/lib/src/a.c", { folder: "/w", args, relative: "lib/src/a.c" });

describe("clangdIndexMissing", () => {
  it.each([
    ["beside the file", "/w/lib/src/compile_commands.json"],
    ["in a folder above", "/w/compile_commands.json"],
    ["in build/ of a folder above", "/w/lib/build/compile_commands.json"],
  ])("finds a database %s: the index may come", async (_where, path) => {
    expect(await missing({ [path]: "[]" })).toBeUndefined();
  });

  it("names the missing compile_commands.json and how to make one", async () => {
    const why = await missing({ "/w/Makefile": "all:" });
    expect(why).toMatch(/^clangd found no compile_commands\.json for lib\/src\/a\.c .*no background index is coming/);
    expect(why).toContain("cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
  });

  it("does not look above the workspace folder", async () => {
    expect(await missing({ "/compile_commands.json": "[]" })).toMatch(/no compile_commands\.json/);
  });

  it("says compile_flags.txt lists no files", async () => {
    expect(await missing({ "/w/lib/compile_flags.txt": "-Iinclude" })).toMatch(/only compile_flags\.txt .* lists no files/);
  });

  it("waits for a .clangd that names a database folder, unless config is off", async () => {
    const files = { "/w/.clangd": "CompileFlags:\n  CompilationDatabase: out/\n" };
    expect(await missing(files)).toBeUndefined();
    expect(await missing(files, [...ARGS, "--enable-config=false"])).toMatch(/no compile_commands\.json/);
    expect(await missing({ "/w/.clangd": "Diagnostics:\n  UnusedIncludes: Strict\n" })).toMatch(/no compile_commands\.json/);
  });

  it("says the index is off when it runs without one", async () => {
    const why = await missing({ "/w/compile_commands.json": "[]" }, ["--background-index=false"]);
    expect(why).toMatch(/without its background index/);
  });
});
