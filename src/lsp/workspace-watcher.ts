// Watches the workspace's source directories so that a change made outside the bridge (an editor,
// git, a build) reaches the language servers between calls: open documents are re-synced and every
// server gets workspace/didChangeWatchedFiles, which servers rely on for files they have not open,
// so no answer comes from a stale copy. Each directory is watched on its own (not Node's recursive mode, which
// walks node_modules too); generated and vendored trees are skipped, and the count is bounded.
// The kind of change is told by what was there before, not by the event's name: a save that writes
// a temporary file and renames it over the target (sed -i, most editors, the bridge's own atomic
// writes) arrives as "rename", and a server told Created for a file it knows ignores it (tsgo
// re-reads a known file only on Changed), so its dependents would keep their old diagnostics.
import type { Fs, Watcher } from "../ports/fs.ts";
import { ALWAYS_SKIPPED } from "../lib/ignore/visibility.ts";

const MAX_DIRECTORIES = 4000;
/**
 * Skipped trees whose top folder alone is watched: a package install rewrites its lock file there
 * (.package-lock.json, .modules.yaml, .yarn-integrity), and the servers read the types it holds,
 * so an install is a change like the others (kept diagnostics are not reused past it).
 */
const SHALLOW = new Set(["node_modules"]);
/** Editors save in bursts (write, rename, chmod): one batch per burst. */
const BATCH_MS = 50;

type FileChangeType = 1 | 2 | 3; // Created, Changed, Deleted (FileChangeType of LSP)

interface FileChange {
  path: string;
  type: FileChangeType;
}

export class WorkspaceWatcher {
  private readonly watchers = new Map<string, Watcher>();
  /** The names each watched directory held when last seen, to tell a change from a creation. */
  private readonly entries = new Map<string, Set<string>>();
  /** Watched SHALLOW folders. */
  private readonly shallow = new Set<string>();
  /** Paths with an event since the last batch; what changed is looked up when the batch goes. */
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The batch being told to the servers, for settled(). */
  private flushing: Promise<void> | undefined;
  private closed = false;
  /**
   * Some directories are unseen (more than MAX_DIRECTORIES, or one the OS would not watch, as past
   * inotify's limit): what changes there is only seen by the check before each request.
   */
  truncated = false;

  constructor(
    private readonly fs: Pick<Fs, "watch" | "readdir" | "lstat">,
    private readonly onChanges: (changes: FileChange[]) => void,
  ) {}

  async start(folders: readonly string[]): Promise<void> {
    for (const folder of folders) await this.watchTree(folder);
  }

  /**
   * Resolves once every event the OS has delivered so far has been told to the servers: a call that
   * answers from a server's state waits for the batch in flight rather than answer from before it.
   */
  async settled(): Promise<void> {
    while (!this.closed && (this.timer !== undefined || this.flushing !== undefined)) {
      if (this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.startFlush();
      }
      await this.flushing;
    }
  }

  get directories(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private async watchTree(root: string): Promise<void> {
    const queue = [root];
    while (queue.length > 0 && !this.closed) {
      const dir = queue.shift() as string;
      if (this.watchers.has(dir)) continue;
      if (this.watchers.size >= MAX_DIRECTORIES) {
        this.truncated = true;
        return;
      }
      const subdirectories = await this.watchOne(dir);
      for (const name of subdirectories) {
        const path = `${dir === "/" ? "" : dir}/${name}`;
        if (!ALWAYS_SKIPPED.has(name)) queue.push(path);
        else if (SHALLOW.has(name) && this.watchers.size < MAX_DIRECTORIES) await this.watchShallow(path);
      }
    }
  }

  /** A SHALLOW folder: only its own dot files (the lock files) are heard, nothing below it is watched. */
  private async watchShallow(dir: string): Promise<void> {
    this.shallow.add(dir);
    await this.watchOne(dir);
  }

  /** Watches one directory (not below it); answers the names of its subdirectories. */
  private async watchOne(dir: string): Promise<string[]> {
    try {
      const watcher = this.fs.watch(dir, (event) => this.onEvent(dir, event.name), {
        // A late error of a watcher already replaced (the folder removed and made again) is not this one's.
        onError: () => {
          if (this.watchers.get(dir) === watcher) void this.lost(dir);
        },
      });
      this.watchers.set(dir, watcher);
      const names = new Set<string>();
      const subdirectories: string[] = [];
      for (const entry of await this.fs.readdir(dir)) {
        names.add(entry.name);
        if (entry.isDirectory) subdirectories.push(entry.name);
      }
      this.entries.set(dir, names);
      return subdirectories;
    } catch {
      await this.lost(dir);
      return [];
    }
  }

  /** A directory whose watch failed or ended: gone is fine, but one still there is unseen from now on. */
  private async lost(dir: string): Promise<void> {
    this.unwatch(dir);
    const there = await this.fs.lstat(dir).then(
      (st) => st.isDirectory,
      () => false,
    );
    if (there && !this.closed) this.truncated = true;
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
    this.entries.delete(dir);
    this.shallow.delete(dir);
  }

  private onEvent(dir: string, name: string | undefined): void {
    if (this.closed || name === undefined || (this.shallow.has(dir) && !name.startsWith("."))) return;
    this.pending.add(`${dir === "/" ? "" : dir}/${name}`);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.startFlush();
    }, BATCH_MS);
  }

  /** Batches go one after another, so a server hears of changes in the order they were seen. */
  private startFlush(): void {
    // A batch that fails (a server's notification) must not stop the next one.
    const run = (this.flushing ?? Promise.resolve()).then(() => this.flush()).catch(() => {});
    this.flushing = run;
    void run.finally(() => {
      if (this.flushing === run) this.flushing = undefined;
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Set();
    const changes: FileChange[] = [];
    for (const path of batch) {
      const slash = path.lastIndexOf("/");
      const dir = slash <= 0 ? "/" : path.slice(0, slash);
      const name = path.slice(slash + 1);
      const names = this.entries.get(dir);
      const known = names?.has(name) === true;
      const st = await this.fs.lstat(path).catch(() => undefined);
      if (st === undefined) {
        names?.delete(name);
        this.unwatch(path);
        // A name that came and went between two looks (an editor's temporary file) was never there for a server.
        if (known) changes.push({ path, type: 3 });
        continue;
      }
      names?.add(name);
      if (st.isDirectory && !known && !this.shallow.has(dir) && !ALWAYS_SKIPPED.has(name)) await this.watchTree(path);
      else if (st.isDirectory && !known && SHALLOW.has(name)) await this.watchShallow(path);
      changes.push({ path, type: known ? 2 : 1 });
    }
    if (changes.length > 0 && !this.closed) this.onChanges(changes);
  }
}
