// Which arguments a built-in server starts with: clangd loses its on-disk background index when a
// directory on the index's path (beside the database, or in build/) is a symlink or not a directory.
import { describe, expect, it } from "vitest";
import { launchArgsFor } from "../../../src/lsp/launch-options.ts";
import { BUILT_IN_SERVERS, type ServerSpec } from "../../../src/lsp/server-specs.ts";
import type { FileStat } from "../../../src/ports/fs.ts";
import { fakeStat } from "../../helpers/fake-stat.ts";

const clangd = BUILT_IN_SERVERS.find((s) => s.id === "clangd") as ServerSpec;
const gopls = BUILT_IN_SERVERS.find((s) => s.id === "gopls") as ServerSpec;

/** An lstat over a made-up tree: path -> "dir", "link" or "file"; anything else does not exist. */
function tree(entries: Record<string, "dir" | "link" | "file">) {
  return {
    lstat: async (path: string): Promise<FileStat> => {
      const kind = entries[path];
      if (kind === undefined) throw new Error(`ENOENT: ${path}`);
      return fakeStat(kind);
    },
  };
}

describe("launchArgsFor", () => {
  it("keeps clangd's background index when its directories are real or absent", async () => {
    expect(await launchArgsFor(clangd, "/w", { fs: tree({}) })).toEqual(clangd.args);
    const real = tree({ "/w/.cache": "dir", "/w/.cache/clangd": "dir", "/w/.cache/clangd/index": "dir" });
    expect(await launchArgsFor(clangd, "/w", { fs: real })).toContain("--background-index");
  });

  it.each([
    [{ "/w/.cache": "link" }],
    [{ "/w/.cache": "dir", "/w/.cache/clangd": "link" }],
    [{ "/w/.cache": "dir", "/w/.cache/clangd": "dir", "/w/.cache/clangd/index": "link" }],
    [{ "/w/.cache": "file" }],
    [{ "/w/build/.cache": "link" }],
  ] as const)("turns it off for %o", async (entries) => {
    const args = await launchArgsFor(clangd, "/w", { fs: tree(entries) });
    expect(args).toContain("--background-index=false");
    expect(args).not.toContain("--background-index");
  });

  it("leaves other servers' arguments alone", async () => {
    expect(await launchArgsFor(gopls, "/w", { fs: tree({ "/w/.cache": "link" }) })).toBe(gopls.args);
  });
});
