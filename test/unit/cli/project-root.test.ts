// The project a directory belongs to: inside git, the repository's top level (a monorepo's
// sub-package too); outside git, the nearest package manifest; a dotfiles `.git` in the home
// directory or at the top is no project.
import { describe, expect, it } from "vitest";
import { describeProjectRoot } from "../../../src/cli/project-root.ts";
import { dirname } from "../../../src/lib/paths/posix-path.ts";

/** A directory tree as a map from directory to the names in it. */
function walk(tree: Record<string, string[]>, home = "/home/u") {
  return { list: async (dir: string) => tree[dir] ?? [], parent: dirname, home };
}

describe("describeProjectRoot", () => {
  const monorepo = {
    "/r": [".git", "package.json", "packages"],
    "/r/packages": ["app"],
    "/r/packages/app": ["package.json", "src"],
    "/r/packages/app/src": ["x.ts"],
  };

  it("roots a monorepo's sub-package, and a folder in it, at the repository's top level", async () => {
    expect(await describeProjectRoot("/r/packages/app", walk(monorepo))).toEqual({ root: "/r", kind: "git" });
    expect(await describeProjectRoot("/r/packages/app/src", walk(monorepo))).toEqual({ root: "/r", kind: "git" });
  });

  it("takes a worktree's or submodule's .git file as its top level, the nearest one", async () => {
    const tree = { "/r": [".git"], "/r/vendor/lib": [".git", "go.mod"], "/r/vendor/lib/pkg": [] };
    expect(await describeProjectRoot("/r/vendor/lib/pkg", walk(tree))).toEqual({ root: "/r/vendor/lib", kind: "git" });
  });

  it("outside git, the nearest directory with a package manifest, else the start", async () => {
    const tree = { "/p": ["Cargo.toml"], "/p/crates/a": ["Cargo.toml", "src"], "/p/crates/a/src": [] };
    expect(await describeProjectRoot("/p/crates/a/src", walk(tree))).toEqual({ root: "/p/crates/a", kind: "manifest" });
    expect(await describeProjectRoot("/elsewhere/x", walk(tree))).toEqual({ root: "/elsewhere/x", kind: "start" });
  });

  it("passes over a .git in the home directory or at the top (dotfiles)", async () => {
    const tree = { "/": [".git"], "/home/u": [".git", ".bashrc"], "/home/u/code/app": ["package.json"], "/home/u/code/app/src": [] };
    expect(await describeProjectRoot("/home/u/code/app/src", walk(tree))).toEqual({ root: "/home/u/code/app", kind: "manifest" });
    expect(await describeProjectRoot("/home/u/notes", walk(tree))).toEqual({ root: "/home/u/notes", kind: "start" });
  });
});
