// The project a directory belongs to. Claude Code starts stdio servers where it was started, which
// may be `app/src` or `app/packages/web` rather than `app`; a bridge rooted there would jail every
// tool inside that folder, refuse `../../src/x.ts`, and let git tools see only part of the
// repository. So: inside a git repository, its top level (the nearest directory holding `.git`, a
// directory or, in a worktree or submodule, a file), however deep the start and whatever package
// manifests lie between; outside git, the nearest directory with a package manifest; else the start
// itself. A `.git` in the home directory or at the filesystem's top is someone's dotfiles, not a
// project, and is passed over. Shared by the shim (node:fs), the bridge's default workspace and
// doctor (the Runtime's fs), so it takes the directory listing and the parent step as functions.
// No runtime imports.
const MANIFESTS = new Set([
  "package.json",
  "deno.json",
  "deno.jsonc",
  "Cargo.toml",
  "go.mod",
  "pyproject.toml",
  "setup.py",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "composer.json",
  "Gemfile",
  "mix.exs",
  "Package.swift",
]);

interface DirectoryWalk {
  /** The names in a directory; [] when it cannot be read (not evidence of a project). */
  list(dir: string): Promise<string[]>;
  /** The parent directory; the same path at the top. */
  parent(dir: string): string;
  /** The user's home directory: a `.git` there does not make a project. */
  home?: string;
}

export interface ProjectRoot {
  root: string;
  /** Why: "git" (a repository's top level), "manifest" (outside git), "start" (neither found). */
  kind: "git" | "manifest" | "start";
}

/** The project around `start`: the git top level, else the nearest manifest, else `start`. */
export async function findProjectRoot(start: string, walk: DirectoryWalk): Promise<string> {
  return (await describeProjectRoot(start, walk)).root;
}

/** findProjectRoot, saying which rule chose the root. */
export async function describeProjectRoot(start: string, walk: DirectoryWalk): Promise<ProjectRoot> {
  const home = walk.home === undefined ? undefined : trimSlash(walk.home);
  let manifest: string | undefined;
  for (let dir = start; ; ) {
    const parent = walk.parent(dir);
    const atTop = parent === dir;
    const names = await walk.list(dir);
    if (names.includes(".git") && !atTop && trimSlash(dir) !== home) return { root: dir, kind: "git" };
    if (manifest === undefined && names.some((name) => MANIFESTS.has(name))) manifest = dir;
    if (atTop) return manifest === undefined ? { root: start, kind: "start" } : { root: manifest, kind: "manifest" };
    dir = parent;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, "") : path;
}
