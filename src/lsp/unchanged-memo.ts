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

/** Answers kept at once (one per name asked about, the least recently used dropped first). */
const MAX_KEPT = 64;

interface Kept {
  generation: number;
  value: unknown;
}

/** The watcher as the memo needs it: its pending batch told at once, and whether some directory is unseen. */
interface SettlingWatcher {
  settled(): Promise<void>;
  readonly truncated: boolean;
}

export class UnchangedMemo {
  private readonly kept = new Map<string, Kept>();
  /** Moves on with every batch of changes heard or told. */
  private generation = 0;

  /** `vouches`: this runtime and OS deliver a write's watch event before a call that comes after it. */
  constructor(private readonly opts: { vouches: boolean; watcher(): SettlingWatcher | undefined }) {}

  /** Files changed (heard by the watcher, or told by the bridge itself). */
  changed(): void {
    this.generation += 1;
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
