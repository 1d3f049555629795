// An opening reads the repository's config (`git config --list`) and asks where the repository is
// (rev-parse): two git processes before every git tool's own command, most of a quick tool's cost.
// What they answer depends only on files: the config files git read and those it would read if they
// appeared (the defaults, every include target, a conditional include's branch in HEAD), and the
// `.git` entries between the directory and the working tree's top. So the answer is kept with a
// stamp of each (inode, size, mtime, ctime, owner) and given again while every stamp is the same.
//
// The config decides what the runner must neutralise, so a kept answer must never outlive a change.
// ctime is the proof: no process can set it, and every change of content, name, mode or owner moves
// it to the file system's "now". A file changed at the time of the read or after has a ctime no older
// than the read's start, so an answer is kept only when every file's ctime is older than the read's
// start by a margin (two seconds: a file system may count ctime in whole seconds): git read exactly
// what was stamped, and any later change differs from the stamp. (A file system whose clock runs
// more than the margin behind the bridge's, a network mount's, could stamp a change made during the
// read as older than it: the one case this proof does not cover.)
import { fsErrorCode } from "../../errors.ts";
import { dirname, isAbsolute } from "../../lib/paths/posix-path.ts";
import type { FileStat, Fs } from "../../ports/fs.ts";
import type { ListedConfigEntry } from "../../security/git/repo-config-guard.ts";
import type { GitLocation } from "./git-location.ts";

/** A file changed this recently (or later) may have changed during the read: its answer is not kept. */
const RACY_MARGIN_MS = 2000;
/** Openings kept, one per directory git ran in; the oldest goes first. */
const MAX_KEPT = 32;

/** What a fresh read gives: the opening's answer, and what the memo needs to know of it. */
export interface OpeningRead<T> {
  answer: T;
  /** The config as listed (with origins) and the location, when git gave both (else nothing is kept). */
  facts?: { entries: readonly ListedConfigEntry[]; location: GitLocation };
}

interface Kept<T> {
  answer: T;
  stamps: ReadonlyMap<string, string>;
}

export interface GitOpeningMemoDeps {
  fs: Pick<Fs, "stat">;
  /** The bridge's clock, in the file system's unit (ms since the epoch). */
  now?: () => number;
}

export class GitOpeningMemo {
  private readonly kept = new Map<string, Kept<unknown>>();
  private readonly now: () => number;

  constructor(private readonly deps: GitOpeningMemoDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The opening's answer in `cwd` (absolute) for git run with `env`: the kept one while every file it
   * depends on is as stamped, else `read()`'s, kept when it can be proven.
   */
  async open<T>(at: { cwd: string; env: Readonly<Record<string, string>> }, read: () => Promise<OpeningRead<T>>): Promise<T> {
    const kept = this.kept.get(at.cwd) as Kept<T> | undefined;
    if (kept !== undefined) {
      if (await this.unchanged(kept.stamps)) return kept.answer;
      this.kept.delete(at.cwd);
    }
    const startedAt = this.now();
    const fresh = await read();
    if (fresh.facts === undefined) return fresh.answer;
    const inputs = configInputs(fresh.facts, at);
    const stamps = inputs === undefined ? undefined : await this.stamp(inputs, startedAt);
    if (stamps !== undefined) {
      this.kept.delete(at.cwd);
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(at.cwd, { answer: fresh.answer, stamps });
    }
    return fresh.answer;
  }

  private async unchanged(stamps: ReadonlyMap<string, string>): Promise<boolean> {
    const now = await Promise.all([...stamps.keys()].map((path) => this.stampOf(path)));
    return [...stamps.values()].every((stamp, i) => now[i] === stamp);
  }

  /** Each input's stamp, or undefined when one cannot be proven unchanged since before `startedAt`. */
  private async stamp(paths: readonly string[], startedAt: number): Promise<Map<string, string> | undefined> {
    const stats = await Promise.all(paths.map((path) => this.statOf(path)));
    const stamps = new Map<string, string>();
    for (const [i, path] of paths.entries()) {
      const st = stats[i];
      if (st === null) return undefined;
      if (st !== undefined && !st.isDirectory && !settledBefore(st, startedAt)) return undefined;
      stamps.set(path, stampOf(st));
    }
    return stamps;
  }

  private async stampOf(path: string): Promise<string | null> {
    const st = await this.statOf(path);
    return st === null ? null : stampOf(st);
  }

  /** stat(2) following links; undefined: not there; null: cannot tell (no permission, a loop). */
  private statOf(path: string): Promise<FileStat | undefined | null> {
    return this.deps.fs.stat(path).then(
      (st) => st,
      (err: unknown) => (["ENOENT", "ENOTDIR"].includes(fsErrorCode(err)) ? undefined : null),
    );
  }
}

/** What a stamp compares: for a directory only which one it is and whose (its entries come and go). */
function stampOf(st: FileStat | undefined): string {
  if (st === undefined) return "-";
  if (st.isDirectory) return `d:${st.dev}:${st.ino}:${st.uid}:${st.mode}`;
  return `f:${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.uid}:${st.mode}`;
}

/** Changed last before the read began, by the margin (a runtime that gives no ctime proves nothing). */
function settledBefore(st: FileStat, startedAt: number): boolean {
  return Number.isFinite(st.ctimeMs) && st.ctimeMs < startedAt - RACY_MARGIN_MS;
}

/**
 * Every file whose change could change the opening's answer, absolute; undefined when one cannot be
 * named (an include through a path form the memo does not resolve, a config that is not a file).
 */
export function configInputs(
  read: { entries: readonly ListedConfigEntry[]; location: GitLocation },
  at: { cwd: string; env: Readonly<Record<string, string>> },
): string[] | undefined {
  const { location } = read;
  if (!isAbsolute(location.top) || !isAbsolute(location.gitDir) || !isAbsolute(location.commonDir)) return undefined;
  const defaults = defaultConfigFiles(at.env);
  if (defaults === undefined) return undefined;
  const files = new Set<string>([...defaults, ...repositoryFiles(location, at.cwd)]);
  for (const entry of read.entries) {
    if (entry.origin.startsWith("command line:")) continue;
    if (!entry.origin.startsWith("file:")) return undefined;
    const origin = entry.origin.slice("file:".length);
    const file = isAbsolute(origin) ? origin : under(location.top, origin);
    files.add(file);
    if (entry.key === "include.path" || /^includeif\..*\.path$/.test(entry.key)) {
      const target = includeTarget(entry.value, { from: file, home: at.env.HOME });
      if (target === undefined) return undefined;
      files.add(target);
    }
  }
  return [...files];
}

/**
 * Where git looks for the user's and the system's config, whether or not the files are there (the
 * system's even when GIT_CONFIG_NOSYSTEM may turn it off: a stamp too many costs nothing); undefined
 * when the environment names one by a relative path.
 */
function defaultConfigFiles(env: Readonly<Record<string, string>>): string[] | undefined {
  const home = env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : undefined;
  const xdg = env.XDG_CONFIG_HOME !== undefined && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  const global =
    env.GIT_CONFIG_GLOBAL !== undefined
      ? [env.GIT_CONFIG_GLOBAL]
      : home === undefined
        ? []
        : [under(home, ".gitconfig"), xdg === undefined ? under(home, ".config/git/config") : under(xdg, "git/config")];
  const files = [...global, env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig"];
  return files.every(isAbsolute) ? files : undefined;
}

/**
 * The repository's own config files, HEAD (an `onbranch:` include), the link of a linked worktree,
 * the working tree's top and the git directories (whose owner git checks), and every `.git` from
 * the directory git ran in up to the top: one appearing below would be found first.
 */
function repositoryFiles(location: GitLocation, cwd: string): string[] {
  const files = [
    under(location.commonDir, "config"),
    under(location.gitDir, "config.worktree"),
    under(location.gitDir, "HEAD"),
    under(location.gitDir, "commondir"),
    location.top,
    location.gitDir,
    location.commonDir,
  ];
  for (let dir = cwd; ; dir = dirname(dir)) {
    files.push(under(dir, ".git"));
    if (dir === location.top || dir === "/" || !dir.startsWith(`${location.top}/`)) break;
  }
  return files;
}

/** An include's path as git opens it: `~/` from HOME, else relative to the including file's folder. */
function includeTarget(value: string, at: { from: string; home: string | undefined }): string | undefined {
  if (value.startsWith("~/")) return at.home !== undefined && isAbsolute(at.home) ? under(at.home, value.slice(2)) : undefined;
  if (value.startsWith("~") || value.startsWith("%(") || value === "") return undefined;
  return isAbsolute(value) ? value : under(at.from.slice(0, at.from.lastIndexOf("/")), value);
}

/**
 * `name` in `dir`, joined as git joins them: not normalised, since "link/.." is resolved by the
 * file system (through the link), not by erasing both.
 */
function under(dir: string, name: string): string {
  return `${dir.endsWith("/") ? dir.slice(0, -1) : dir}/${name}`;
}
