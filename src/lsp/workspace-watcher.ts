// Watches the workspace's source directories so that a change made outside the bridge (an editor,
// git, a build) reaches the language servers between calls: open documents are re-synced and every
// server gets workspace/didChangeWatchedFiles, which servers rely on for files they have not open,
// so no answer comes from a stale copy. Each directory is watched on its own (not Node's recursive mode, which
// walks node_modules too); generated and vendored trees are skipped, and the count is bounded.
import type { Fs, Watcher } from "../ports/fs.ts";
import { ALWAYS_SKIPPED } from "../lib/ignore/visibility.ts";

const MAX_DIRECTORIES = 4000;
/** Editors save in bursts (write, rename, chmod): one batch per burst. */
const BATCH_MS = 50;

type FileChangeType = 1 | 2 | 3; // Created, Changed, Deleted (FileChangeType of LSP)

interface FileChange {
  path: string;
  type: FileChangeType;
}

export class WorkspaceWatcher {
  private readonly watchers = new Map<string, Watcher>();
  private pending = new Map<string, "change" | "rename">();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** More directories than MAX_DIRECTORIES: the rest is only seen by the check before each request. */
  truncated = false;

  constructor(
    private readonly fs: Pick<Fs, "watch" | "readdir" | "lstat">,
    private readonly onChanges: (changes: FileChange[]) => void,
  ) {}

  async start(folders: readonly string[]): Promise<void> {
    for (const folder of folders) await this.watchTree(folder);
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
      try {
        this.watchers.set(
          dir,
          this.fs.watch(dir, (event) => this.onEvent(dir, event.kind, event.name), { onError: () => this.unwatch(dir) }),
        );
        for (const entry of await this.fs.readdir(dir)) {
          if (entry.isDirectory && !ALWAYS_SKIPPED.has(entry.name)) queue.push(`${dir === "/" ? "" : dir}/${entry.name}`);
        }
      } catch {
        // Gone or unreadable: nothing to watch there.
        this.unwatch(dir);
      }
    }
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private onEvent(dir: string, kind: "change" | "rename", name: string | undefined): void {
    if (this.closed || name === undefined) return;
    const path = `${dir === "/" ? "" : dir}/${name}`;
    if (this.pending.get(path) !== "rename") this.pending.set(path, kind);
    this.timer ??= setTimeout(() => void this.flush(), BATCH_MS);
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    const changes: FileChange[] = [];
    for (const [path, kind] of batch) {
      const st = await this.fs.lstat(path).catch(() => undefined);
      if (st === undefined) {
        changes.push({ path, type: 3 });
        this.unwatch(path);
      } else if (st.isDirectory) {
        if (!ALWAYS_SKIPPED.has(path.slice(path.lastIndexOf("/") + 1))) await this.watchTree(path);
        changes.push({ path, type: kind === "rename" ? 1 : 2 });
      } else {
        changes.push({ path, type: kind === "rename" ? 1 : 2 });
      }
    }
    if (changes.length > 0 && !this.closed) this.onChanges(changes);
  }
}
