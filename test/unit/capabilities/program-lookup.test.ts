// Where a toolchain program is found: the project's pin, then PATH, then the bridge's own copy of
// the checkers it ships, so a project without pyright is still checked, and never the bridge's copy
// over the project's own.
import { describe, expect, it } from "vitest";
import { findProgram, type ProgramLookupRuntime } from "../../../src/capabilities/exec/program-lookup.ts";
import type { BundledFile } from "../../../src/ports/lsp.ts";
import type { FileStat } from "../../../src/ports/fs.ts";

function runtimeWith(opts: {
  projectBins?: string[];
  onPath?: string[];
  bundled?: boolean;
}): ProgramLookupRuntime & { asked: BundledFile[] } {
  const asked: BundledFile[] = [];
  const stat = async (path: string) => {
    if (!(opts.projectBins ?? []).some((name) => path === `/ws/node_modules/.bin/${name}`)) throw new Error("ENOENT");
    return { isFile: true, isDirectory: false, isSymbolicLink: false, size: 1, mtimeMs: 0, mode: 0o755 } as FileStat;
  };
  return {
    asked,
    fs: { stat } as unknown as ProgramLookupRuntime["fs"],
    which: async (name) => ((opts.onPath ?? []).includes(name) ? `/usr/bin/${name}` : undefined),
    ...(opts.bundled === undefined
      ? {}
      : {
          languageServers: {
            bundled: async (file) => {
              asked.push(file);
              return opts.bundled ? `/bridge/node_modules/${file.package}/${file.bin ?? file.path}` : undefined;
            },
          },
        }),
  };
}

describe("findProgram", () => {
  it("prefers the project's pin, then PATH, and asks for the bridge's copy only when both are missing", async () => {
    const pinned = runtimeWith({ projectBins: ["pyright"], onPath: ["pyright"], bundled: true });
    expect(await findProgram(pinned, "pyright", { root: "/ws" })).toEqual({ path: "/ws/node_modules/.bin/pyright", projectBin: true });
    const onPath = runtimeWith({ onPath: ["pyright"], bundled: true });
    expect(await findProgram(onPath, "pyright", { root: "/ws" })).toEqual({ path: "/usr/bin/pyright", projectBin: false });
    expect([...pinned.asked, ...onPath.asked]).toEqual([]);
    const shipped = runtimeWith({ bundled: true });
    expect(await findProgram(shipped, "pyright", { root: "/ws" })).toEqual({
      path: "/bridge/node_modules/pyright/pyright",
      projectBin: false,
      bundled: true,
    });
  });

  it("finds TypeScript 7's compiler as tsgo in the platform package the language server uses", async () => {
    const shipped = runtimeWith({ bundled: true });
    const found = await findProgram(shipped, "tsgo", { root: "/ws" });
    expect(found?.bundled).toBe(true);
    expect(shipped.asked).toEqual([{ package: "@typescript/typescript-{platform}-{arch}", path: "lib/tsc" }]);
  });

  it("has no copy of other programs, and none without the bridge's launcher or an installed package", async () => {
    const shipped = runtimeWith({ bundled: true });
    expect(await findProgram(shipped, "eslint", { root: "/ws" })).toBeUndefined();
    expect(shipped.asked).toEqual([]);
    expect(await findProgram(runtimeWith({}), "pyright", { root: "/ws" })).toBeUndefined();
    expect(await findProgram(runtimeWith({ bundled: false }), "pyright", { root: "/ws" })).toBeUndefined();
  });
});
