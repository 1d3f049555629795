// Which entries a listing or a search sees, decided in ripgrep's order so the built-in walk and
// `rg` agree: the bridge's own exclusions first (VCS and build output, its data directory), then
// the caller's include/exclude globs, then .gitignore, then hidden names. Unlike ripgrep, an
// include glob never lets in what .gitignore or a hidden name keeps out: the globs narrow a
// search, they do not widen it (the rg path filters its output to match, src/tools/search).
import { compileGlob, type GlobMatcher } from "../glob/index.ts";
import { gitignoreMatch, type IgnoreLevel } from "./ignore-levels.ts";

/** Names never listed or searched, at any depth: VCS data, dependencies, build output, the bridge's data. */
export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  "dist",
  "build",
  "out",
  "coverage",
  ".next",
  "target",
  "__pycache__",
  ".venv",
  ".claude-ide-bridge",
]);

export interface PathFilter {
  /** Files must match one of these (when any), relative to the search directory. */
  readonly include: readonly GlobMatcher[];
  /** Files and directories matching one of these are left out. */
  readonly exclude: readonly GlobMatcher[];
}

export function compilePathFilter(include: readonly string[] = [], exclude: readonly string[] = []): PathFilter {
  return { include: include.map(compileGlob), exclude: exclude.map(compileGlob) };
}

interface VisibilityOptions {
  includeHidden: boolean;
  /** Apply .gitignore and .git/info/exclude (default). */
  gitignore: boolean;
  filter?: PathFilter | undefined;
}

interface Candidate {
  name: string;
  isDir: boolean;
  /** Relative to the workspace folder, for the .gitignore levels. */
  folderPath: string;
  /** Relative to the search directory, for the caller's globs. */
  searchPath: string;
}

export function isVisible(entry: Candidate, level: IgnoreLevel | undefined, opts: VisibilityOptions): boolean {
  if (ALWAYS_SKIPPED.has(entry.name)) return false;
  if (opts.filter !== undefined && !passesFilter(opts.filter, entry.searchPath, entry)) return false;
  const ignored = opts.gitignore ? gitignoreMatch(level, entry.folderPath, entry) : undefined;
  if (ignored === "ignore") return false;
  // A "!pattern" that names a hidden file lets it in, as in ripgrep.
  if (ignored === "whitelist") return true;
  return opts.includeHidden || !entry.name.startsWith(".");
}

/** Exclusions apply to directories too (nothing below them is seen); inclusions to files only. */
export function passesFilter(filter: PathFilter, path: string, entry: { isDir: boolean }): boolean {
  if (filter.exclude.some((g) => g.matches(path))) return false;
  if (entry.isDir || filter.include.length === 0) return true;
  return filter.include.some((g) => g.matches(path));
}
