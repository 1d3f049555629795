// Watches the workspace's source directories so that a change made outside the bridge (an editor,
// git, a build) reaches the language servers between calls: open documents are re-synced and every
// server gets workspace/didChangeWatchedFiles, which servers rely on for files they have not open,
// so no answer comes from a stale copy. Each directory is watched on its own (not Node's recursive mode, which
// walks node_modules too); generated and vendored trees are skipped, and the count is bounded.
// The kind of change is told by what was there before, not by the event's name: a save that writes
// a temporary file and renames it over the target (sed -i, most editors, the bridge's own atomic
// writes) arrives as "rename", and a server told Created for a file it knows ignores it (tsgo
// re-reads a known file only on Changed), so its dependents would keep their old diagnostics.
// A folder made after the start is watched when its batch goes, up to BATCH_MS after it appeared:
// what was written into it meanwhile (cp -r, git checkout, mkdir then a write) made no event of its
// own, so the files found in it then are told as Created, as the events would have.
// Where a server reads a file from a skipped tree (clangd's compile_commands.json in build/, CMake's
// place, or a folder a `.clangd` names), that folder alone is watched, for those names only.
import type { Fs, Watcher } from "../ports/fs.ts";
import { ALWAYS_SKIPPED } from "../lib/ignore/visibility.ts";

const MAX_DIRECTORIES = 4000;
/**
 * Skipped trees whose top folder alone is watched: a package install rewrites its lock file there
 * (.package-lock.json, .modules.yaml, .yarn-integrity), and the servers read the types it holds,
 * so an install is a change like the others (kept diagnostics are not reused past it).
 */
const SHALLOW: ReadonlyMap<string, (name: string) => boolean> = new Map([
  ["node_modules", (name: string) => name.startsWith(".")],
  // clangd looks for a compilation database in each folder above a file and in their build/: a
  // database that appears or changes there, or a symlink put on its index's path, is heard.
  ["build", (name: string) => CLANGD_DATABASE_NAMES.has(name)],
]);
/** The names clangd reads in a database folder: the database, and the folder its index is written under. */
export const CLANGD_DATABASE_NAMES: ReadonlySet<string> = new Set(["compile_commands.json", ".cache"]);
/** Editors save in bursts (write, rename, chmod): one batch per burst. */
const BATCH_MS = 50;

/** How hearsChange is asked. */
export interface HearingOptions {
  /** Below a node_modules watched at its top, a change is heard through its lock file (an install). */
  throughLockFiles?: boolean;
  /** Shared by the questions of one proof (UnchangedMemo.proof): real folders resolved once. */
  look?: RealLook;
}

/** Real paths of folders, resolved once for the questions asked together; `settled`: asked after settled(). */
export interface RealLook {
  readonly settled: boolean;
  readonly folders: Map<string, Promise<string | undefined>>;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

type FileChangeType = 1 | 2 | 3; // Created, Changed, Deleted (FileChangeType of LSP)

interface FileChange {
  path: string;
  type: FileChangeType;
}

export class WorkspaceWatcher {
  private readonly watchers = new Map<string, Watcher>();
  /** The names each watched directory held when last seen, to tell a change from a creation. */
  private readonly entries = new Map<string, Set<string>>();
  /** The names of each watched directory that were symlinks when last seen. */
  private readonly links = new Map<string, Set<string>>();
  /** Watched shallow folders (SHALLOW, watchNames), with the names heard there. */
  private readonly shallow = new Map<string, (name: string) => boolean>();
  /** Folders watchNames asked for, watched when they appear. */
  private readonly named = new Map<string, (name: string) => boolean>();
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
    private readonly fs: Pick<Fs, "watch" | "readdir" | "lstat" | "realpath">,
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

  /**
   * Watches one folder of a skipped tree (or outside the walk) for these names only: where a server
   * reads its project's files from (clangd's compilation database). A folder already watched in
   * full stays so; one that does not exist yet is not watched.
   */
  async watchNames(dir: string, names: ReadonlySet<string>): Promise<void> {
    if (this.closed || this.named.has(dir)) return;
    this.named.set(dir, (name) => names.has(name));
    if (this.watchers.has(dir)) return;
    const there = await this.fs.lstat(dir).then(
      (st) => st.isDirectory,
      () => false,
    );
    if (there && this.watchers.size < MAX_DIRECTORIES) await this.watchShallow(dir);
  }

  /**
   * Whether a change to the file or folder at `path` (absolute, present or not) is heard, as a
   * change of the path's own or of its folder's names: both the path as named and its real path are
   * heard (a symlink, or a folder replaced by one, may lead out of the workspace or into a tree not
   * watched, whose changes make no event). Heard: a name of a folder watched in full, or one a
   * skipped folder is watched for; a path absent below a watched folder (its first missing folder
   * appearing is heard), but not a dangling link (its target appearing elsewhere is not); not a
   * skipped folder of a watched one, nor what is in it. With `throughLockFiles`, what is below a
   * node_modules watched at its top is heard through the package manager's lock file there (an
   * install rewrites it; a package's files edited by hand, or linked from within a package, are not
   * heard, as in VS Code). One realpath per folder asked about, shared through `look`: a proof's
   * questions, asked after settled(), when the names seen as links are current.
   */
  async hearsChange(path: string, opts: HearingOptions = {}): Promise<boolean> {
    const lock = opts.throughLockFiles === true;
    if (this.closed || this.truncated || !path.startsWith("/") || !this.heardAt(path, lock)) return false;
    const real = await this.realPathOf(path, opts.look ?? { settled: false, folders: new Map() });
    return real !== undefined && (real === path || this.heardAt(real, lock));
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

  /** Watches `root` and the folders below it; `found` collects the files they hold (a folder made after the start). */
  private async watchTree(root: string, found?: string[]): Promise<void> {
    const queue = [root];
    while (queue.length > 0 && !this.closed) {
      const dir = queue.shift() as string;
      if (this.watchers.has(dir)) continue;
      if (this.watchers.size >= MAX_DIRECTORIES) {
        this.truncated = true;
        return;
      }
      const subdirectories = await this.watchOne(dir, found);
      for (const name of subdirectories) {
        const path = `${dir === "/" ? "" : dir}/${name}`;
        if (!ALWAYS_SKIPPED.has(name)) queue.push(path);
        else if (this.heardIn(path) !== undefined && this.watchers.size < MAX_DIRECTORIES) await this.watchShallow(path, found);
      }
    }
  }

  /** A skipped folder watched alone: only the names it is watched for are heard, nothing below it is watched. */
  private async watchShallow(dir: string, found?: string[]): Promise<void> {
    this.shallow.set(dir, this.heardIn(dir) ?? (() => false));
    await this.watchOne(dir, found);
  }

  /** hearsChange's rule for a path as it is named, from the map of watched folders alone. */
  private heardAt(path: string, throughLockFiles: boolean): boolean {
    const packages = (dir: string) => throughLockFiles && dir.endsWith("/node_modules");
    // A watched folder: its names are heard in full, or, for a node_modules, through its lock file.
    if (this.watchers.has(path)) return !this.shallow.has(path) || packages(path);
    // Walk up to the nearest watched folder, noting the name below it on the way.
    let child = path;
    let dir = parentOf(path);
    while (!this.watchers.has(dir)) {
      if (dir === "/") return false;
      child = dir;
      dir = parentOf(dir);
    }
    const name = child.slice(child.lastIndexOf("/") + 1);
    const heard = this.shallow.get(dir);
    // A skipped folder watched for a few names: those are heard, and below a node_modules, an install.
    if (heard !== undefined) return (child === path && heard(name)) || packages(dir);
    // Absent (the path, or the first missing folder above it): its creation is heard.
    if (this.entries.get(dir)?.has(name) !== true) return true;
    // A name of a watched folder: heard, unless it is a skipped folder (what is in it is not).
    return child === path && !ALWAYS_SKIPPED.has(name);
  }

  /**
   * Where `path` is really (or would be, absent): its folder's real path, cached in `look`, and its
   * own name's target when it is a link (a dangling one: undefined). Whether the name is a link is
   * the watcher's last look after settled() (a change of it is heard; in a package's folder, not
   * watched, it is taken as none, as the lock file rule takes its files), the fs's word otherwise.
   */
  private async realPathOf(path: string, look: RealLook): Promise<string | undefined> {
    const slash = path.lastIndexOf("/");
    const folder = await this.realFolder(slash <= 0 ? "/" : path.slice(0, slash), look);
    if (folder === undefined) return undefined;
    const name = path.slice(slash + 1);
    const real = `${folder === "/" ? "" : folder}/${name}`;
    const link =
      look.settled && !this.linksUnseen(folder)
        ? this.links.get(folder)?.has(name) === true
        : await this.fs.lstat(real).then(
            (st) => st.isSymbolicLink,
            () => false,
          );
    return link ? this.fs.realpath(real).catch(() => undefined) : real;
  }

  /**
   * Whether the links among a folder's names go unseen by the watcher: where packages are linked
   * (`npm link`, a `file:` or workspace dependency), node_modules' top (watched for its lock files
   * alone) and its @scope folders (not watched).
   */
  private linksUnseen(dir: string): boolean {
    return this.shallow.has(dir) || /\/node_modules\/@[^/]+$/.test(dir);
  }

  private realFolder(dir: string, look: RealLook): Promise<string | undefined> {
    let found = look.folders.get(dir);
    if (found === undefined) {
      found = this.fs.realpath(dir).catch(async () => {
        const there = await this.fs.lstat(dir).then(
          () => true,
          () => false,
        );
        // A dangling link, or one that loops: nothing there to hear. An absent folder: where it would be.
        return there || dir === "/" ? undefined : this.realPathOf(dir, look);
      });
      look.folders.set(dir, found);
    }
    return found;
  }

  /** The names heard in a skipped folder watched alone, or undefined when it is not one. */
  private heardIn(dir: string): ((name: string) => boolean) | undefined {
    return this.named.get(dir) ?? SHALLOW.get(dir.slice(dir.lastIndexOf("/") + 1));
  }

  /** Watches one directory (not below it); answers the names of its subdirectories, and adds its files (those heard) to `found`. */
  private async watchOne(dir: string, found?: string[]): Promise<string[]> {
    try {
      const watcher = this.fs.watch(dir, (event) => this.onEvent(dir, event.name), {
        // A late error of a watcher already replaced (the folder removed and made again) is not this one's.
        onError: () => {
          if (this.watchers.get(dir) === watcher) void this.lost(dir);
        },
      });
      this.watchers.set(dir, watcher);
      const names = new Set<string>();
      const links = new Set<string>();
      const subdirectories: string[] = [];
      const heard = this.shallow.get(dir);
      for (const entry of await this.fs.readdir(dir)) {
        names.add(entry.name);
        if (entry.isSymbolicLink) links.add(entry.name);
        if (entry.isDirectory) subdirectories.push(entry.name);
        else if (found !== undefined && (heard === undefined || heard(entry.name))) found.push(`${dir === "/" ? "" : dir}/${entry.name}`);
      }
      this.entries.set(dir, names);
      this.links.set(dir, links);
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
    this.links.delete(dir);
    this.shallow.delete(dir);
  }

  private onEvent(dir: string, name: string | undefined): void {
    const heard = this.shallow.get(dir);
    if (this.closed || name === undefined || (heard !== undefined && !heard(name))) return;
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
    /** Files told as Created because their new folder held them when first looked at. */
    const told = new Set<string>();
    for (const path of batch) {
      if (told.has(path)) continue;
      const slash = path.lastIndexOf("/");
      const dir = slash <= 0 ? "/" : path.slice(0, slash);
      const name = path.slice(slash + 1);
      const names = this.entries.get(dir);
      const known = names?.has(name) === true;
      const st = await this.fs.lstat(path).catch(() => undefined);
      if (st === undefined) {
        names?.delete(name);
        this.links.get(dir)?.delete(name);
        this.unwatch(path);
        // A name that came and went between two looks (an editor's temporary file) was never there for a server.
        if (known) changes.push({ path, type: 3 });
        continue;
      }
      names?.add(name);
      if (st.isSymbolicLink) this.links.get(dir)?.add(name);
      else this.links.get(dir)?.delete(name);
      const found: string[] = [];
      const fresh = st.isDirectory && !known && !this.watchers.has(path) && !this.shallow.has(dir);
      if (fresh && !ALWAYS_SKIPPED.has(name) && !this.named.has(path)) await this.watchTree(path, found);
      else if (fresh && this.heardIn(path) !== undefined) await this.watchShallow(path, found);
      changes.push({ path, type: known ? 2 : 1 });
      // In the folder when it was first looked at: they made no event of their own, and are new.
      for (const file of found) {
        told.add(file);
        changes.push({ path: file, type: 1 });
      }
    }
    if (changes.length > 0 && !this.closed) this.onChanges(changes);
  }
}
