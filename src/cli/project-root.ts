// The project a directory belongs to: the nearest of it and its ancestors that looks like a
// project's top, a git checkout or a package manifest. Claude Code starts stdio servers
// where it was started, which may be `app/src` rather than `app`; a bridge rooted there would
// jail every tool inside src/. Shared by the shim (node:fs) and doctor (the Runtime's fs), so it
// takes the directory listing and the parent step as functions. No runtime imports.
const PROJECT_MARKERS = new Set([
  ".git",
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
}

/** The nearest of `start` and its ancestors holding a marker; `start` itself when none does. */
export async function findProjectRoot(start: string, walk: DirectoryWalk): Promise<string> {
  for (let dir = start; ; ) {
    if ((await walk.list(dir)).some((name) => PROJECT_MARKERS.has(name))) return dir;
    const parent = walk.parent(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
