// Answers worth keeping while the workspace's files stay as they are: the whole-word text search
// every whole-project answer is checked against costs a process start (rg) per call, 10-100 times
// the language server's own answer on a busy machine, and gives the same result until a file
// changes. A kept answer is reused only when the workspace watcher can vouch that nothing changed:
// - every directory is watched (not truncated) and the watch walk has finished;
// - the events the OS queued before this call have been taken: Linux queues an inotify event
//   before the write returns, so a poll phase of Node's event loop (which reads every ready
//   descriptor) after the write delivers it; then the watcher's pending batch is told at once
//   (WorkspaceWatcher.settled), and each batch told moves the generation on.
// Elsewhere (Bun and Deno deliver watch events from another thread, macOS coalesces them) nothing
// is kept and every call computes afresh. Left unseen, as the language servers leave them: an
// inotify queue overflow, and a change to what the search skips made outside the watched tree
// (.git/info/exclude, a .gitignore above the root); trees it skips itself (node_modules) do not matter.
// The same word is lent to kept compiler and checker answers (proof() below): the paths each batch
// changed are logged (up to MAX_LOGGED), so an answer kept at one generation stays proven at a
// later one while none of the paths it read is among those changed since, and the watcher says
// which paths a change would be heard for at all (WorkspaceWatcher.hearsChange).
import { dirname } from "../lib/paths/posix-path.ts";
import type { HearingOptions } from "./workspace-watcher.ts";

/** Answers kept at once (one per name asked about, the least recently used dropped first). */
const MAX_KEPT = 64;
/** Changed paths remembered for proof(); past it the oldest batches are forgotten (their generations cannot be answered). */
const MAX_LOGGED = 20_000;

interface Kept {
  generation: number;
  value: unknown;
}

/** The watcher as the memo needs it: its pending batch told at once, whether some directory is unseen, and what it watches. */
interface SettlingWatcher {
  settled(): Promise<void>;
  readonly truncated: boolean;
  /** WorkspaceWatcher.hearsChange. */
  hearsChange?(path: string, opts: HearingOptions): Promise<boolean>;
}

/** One change as the watcher tells it (created 1, changed 2, deleted 3), an absolute path. */
export interface TouchedPath {
  path: string;
  type: 1 | 2 | 3;
}

/**
 * The watcher's word at one moment (every change made before it counted): its generation, what
 * changed since an earlier one, and which paths a change would be heard for.
 */
export interface WatchProof {
  readonly generation: number;
  /** The paths changed since `generation`; undefined when that is no longer known (forgotten, or a change told without paths). */
  changesSince(generation: number): ChangedPaths | undefined;
  /**
   * Whether a change to `path` (absolute: created, changed, deleted) moves the generation
   * (WorkspaceWatcher.hearsChange, its real path too): below a node_modules whose top is watched,
   * through the lock file there (a package install rewrites it; a file edited by hand inside a
   * package is not heard, as in VS Code). The folders' real paths are resolved once per proof.
   */
  hears(path: string): Promise<boolean>;
}

export interface ChangedPaths {
  /** Nothing at all was heard changing. */
  readonly none: boolean;
  /** Whether `path` changed: itself, a folder above it (deleted, replaced), or, for a folder, its list of names. */
  touches(path: string): boolean;
}

interface Logged {
  generation: number;
  paths: readonly string[];
  /** Folders whose list of names changed (a name created or deleted there). */
  listings: readonly string[];
}

export class UnchangedMemo {
  private readonly kept = new Map<string, Kept>();
  /** Moves on with every batch of changes heard or told. */
  private generation = 0;
  /** The paths each generation changed, oldest first. */
  private log: Logged[] = [];
  private logged = 0;
  /** Generations before it cannot say what changed since. */
  private floor = 0;

  /** `vouches`: this runtime and OS deliver a write's watch event before a call that comes after it. */
  constructor(private readonly opts: { vouches: boolean; watcher(): SettlingWatcher | undefined }) {}

  /** Files changed (heard by the watcher, or told by the bridge itself); without `paths`, what changed is unknown. */
  changed(paths?: readonly TouchedPath[]): void {
    this.generation += 1;
    if (paths === undefined) {
      this.log = [];
      this.logged = 0;
      this.floor = this.generation;
      return;
    }
    const entry = {
      generation: this.generation,
      // A lock file at a node_modules' top stands for the whole tree (its packages' files are not heard).
      paths: paths.flatMap((c) => (dirname(c.path).endsWith("/node_modules") ? [c.path, dirname(c.path)] : [c.path])),
      listings: paths.filter((c) => c.type !== 2).map((c) => dirname(c.path)),
    };
    this.log.push(entry);
    this.logged += entry.paths.length;
    while (this.logged > MAX_LOGGED) {
      const oldest = this.log.shift();
      if (oldest === undefined) break;
      this.logged -= oldest.paths.length;
      this.floor = oldest.generation;
    }
  }

  /** The watcher's word now, or undefined where it cannot vouch (unchanged-memo's header). */
  async proof(): Promise<WatchProof | undefined> {
    const generation = await this.settledGeneration();
    const watcher = this.opts.watcher();
    if (generation === undefined || watcher === undefined) return undefined;
    // Asked after settled(): the watcher's last look at which names are links is current.
    const look = { settled: true, folders: new Map<string, Promise<string | undefined>>() };
    return {
      generation,
      changesSince: (since) => this.changesSince(since),
      hears: async (path) => (await watcher.hearsChange?.(path, { throughLockFiles: true, look })) === true,
    };
  }

  private changesSince(since: number): ChangedPaths | undefined {
    if (since < this.floor || since > this.generation) return undefined;
    const paths = new Set<string>();
    const listings = new Set<string>();
    for (const entry of this.log) {
      if (entry.generation <= since) continue;
      for (const path of entry.paths) paths.add(path);
      for (const dir of entry.listings) listings.add(dir);
    }
    return {
      none: paths.size === 0,
      touches(path) {
        if (listings.has(path)) return true;
        for (let at = path; ; at = dirname(at)) {
          if (paths.has(at)) return true;
          if (at === "/" || at === "." || dirname(at) === at) return false;
        }
      },
    };
  }

  /** The current generation once every change seen so far is counted, or undefined when changes cannot be vouched for. */
  private async settledGeneration(): Promise<number | undefined> {
    const watcher = this.opts.watcher();
    if (!this.opts.vouches || watcher === undefined || watcher.truncated) return undefined;
    // A poll phase of the event loop between two timers: it reads every watch event queued before
    // the first (one timer alone may fire before the poll, in the same turn as a write just done).
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    await watcher.settled();
    return watcher.truncated ? undefined : this.generation;
  }

  /**
   * The value `compute` gave for `key` when the workspace was as it is now, or a new one, kept
   * when `keep` says so (a failed or cancelled search is asked again next time).
   */
  async get<T>(key: string, compute: () => Promise<T>, opts: { keep(value: T): boolean }): Promise<T> {
    const generation = await this.settledGeneration();
    if (generation === undefined) return compute();
    const found = this.kept.get(key);
    if (found !== undefined) this.kept.delete(key);
    if (found?.generation === generation) {
      this.kept.set(key, found);
      return found.value as T;
    }
    // The generation read before the computation: a change made while it ran makes the next call compute again.
    const value = await compute();
    if (!opts.keep(value)) return value;
    this.kept.set(key, { generation, value });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= MAX_KEPT) break;
      this.kept.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.kept.clear();
  }
}
