// The .gitignore files that apply to a directory: one level per directory from the workspace folder
// down, each with its own rules. The nearest level that has an opinion decides (a deeper
// .gitignore overrides a shallower one), and a directory holding `.git` starts a new repository,
// so the levels above it no longer apply inside it. `.git/info/exclude` of a repository counts
// after all of its .gitignore files. These are ripgrep's rules (its `ignore` crate), so the
// built-in listing and `rg` agree on what is ignored.
import { matchRules, type IgnoreRule, type RuleMatch } from "./gitignore-rules.ts";

export interface IgnoreLevel {
  /** The directory, relative to the workspace folder ("" for the folder itself). */
  readonly dir: string;
  readonly rules: readonly IgnoreRule[];
  /** `.git/info/exclude` when this directory is a repository root with one. */
  readonly exclude: readonly IgnoreRule[];
  /** The directory has a `.git` entry: levels above it do not apply below. */
  readonly hasGit: boolean;
  readonly parent: IgnoreLevel | undefined;
}

export function childLevel(
  parent: IgnoreLevel | undefined,
  dir: string,
  found: { rules: readonly IgnoreRule[]; exclude: readonly IgnoreRule[]; hasGit: boolean },
): IgnoreLevel | undefined {
  // A directory with nothing to say adds no level: lookups stay as short as the real nesting.
  if (found.rules.length === 0 && found.exclude.length === 0 && !found.hasGit) return parent;
  return { dir, rules: found.rules, exclude: found.exclude, hasGit: found.hasGit, parent };
}

/** What the .gitignore files say about `path` (relative to the workspace folder). */
export function gitignoreMatch(level: IgnoreLevel | undefined, path: string, entry: { isDir: boolean }): RuleMatch {
  let fromIgnore: RuleMatch;
  let fromExclude: RuleMatch;
  for (let at = level; at !== undefined; at = at.parent) {
    const rel = at.dir === "" ? path : path.slice(at.dir.length + 1);
    fromIgnore ??= matchRules(at.rules, rel, entry);
    fromExclude ??= matchRules(at.exclude, rel, entry);
    if (fromIgnore !== undefined || at.hasGit) break;
  }
  return fromIgnore ?? fromExclude;
}
