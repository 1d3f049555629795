// The ripgrep flags that make `rg` see exactly what the built-in walk sees (src/ignore): no user or
// global configuration, .gitignore honoured whether or not the workspace is a git repository, no
// .ignore/.rgignore files, no ignore files from outside the workspace's own tree that the jail
// could not read for the fallback (parents above the root aside: see the README), and the
// bridge's fixed exclusions as globs that win over everything.
import { ALWAYS_SKIPPED } from "../../lib/ignore/visibility.ts";

interface VisibilityFlags {
  includeHidden: boolean;
  /** Honour .gitignore and .git/info/exclude. */
  gitignore: boolean;
}

export function visibilityFlags(opts: VisibilityFlags): string[] {
  const flags = ["--no-config", "--no-messages", "--color", "never", "--no-require-git", "--no-ignore-global", "--no-ignore-dot"];
  if (opts.includeHidden) flags.push("--hidden");
  if (!opts.gitignore) flags.push("--no-ignore-vcs");
  return flags;
}

/** Last among the globs, so they win over the caller's (ripgrep: the last matching glob decides). */
export function alwaysSkippedGlobs(): string[] {
  return [...ALWAYS_SKIPPED].flatMap((name) => ["-g", `!${name}`]);
}

/** How rg says "nothing matched" (1) apart from a failure (2). */
export function rgFailed(exitCode: number): boolean {
  return exitCode !== 0 && exitCode !== 1;
}
