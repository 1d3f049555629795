// A recursive watch built from one non-recursive OS watch per directory, added as a walk of the tree
// finds them. Node's own recursive watch on Linux reads the whole tree at once and watches every
// file: on a 100,000-file tree one call held the event loop (every session) for 2.4-3.6 s and added
// about 190 MB. Here the walk gives the loop a turn every few milliseconds (src/workspace/walk.ts),
// only directories are watched (inotify reports their files' changes), and a tree with more
// directories than a watch may hold is refused before it costs anything more, with what to do.
// What is walked is what the other tools see: .git, node_modules and the like never, hidden
// directories only when asked, and not what .gitignore ignores. A directory that appears later is
// walked and watched the same way, and what it already holds is reported as created.
import { ToolError } from "../../errors.ts";
import { ALWAYS_SKIPPED } from "../../lib/ignore/visibility.ts";
import type { WatchEvent, Watcher } from "../../ports/fs.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { createYielder } from "../../lib/yield-now.ts";

/** Nested deeper than this is not watched (symlinks are not followed, so this only bounds odd trees). */
const MAX_DEPTH = 64;
/** OS watches closed in one turn of the event loop: closing one takes ~45 µs (measured), 4,096 would hold it 180 ms. */
const CLOSE_PER_TURN = 200;

export interface TreeWatchLimits {
  /** Directories one watch may hold. */
  maxDirectories: number;
  /** Entries (files and directories) a walk may pass before it gives up: it bounds the time a watch takes to start. */
  maxEntries: number;
  /** Directories the bridge's watches may hold together, and how many the others hold now. */
  bridgeDirectories: number;
  heldByOthers(): number;
}

interface TreeWatchOptions {
  includeHidden: boolean;
  limits: TreeWatchLimits;
  /** An event, its name relative to the watched directory. */
  onEvent(event: WatchEvent): void;
  /** The tree grew past a limit after the start: some new directories are not watched. */
  onIncomplete(reason: string): void;
}

export class TreeWatch {
  /** OS watches by directory, relative to the watched directory ("" for itself). */
  private readonly watchers = new Map<string, Watcher>();
  private readonly stop = new AbortController();
  /** New directories are looked at one after another, in the order their events came. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Pick<ToolContext, "fs" | "log">,
    /** Root-relative ("" for the root). */
    private readonly dir: string,
    private readonly opts: TreeWatchOptions,
  ) {}

  get directories(): number {
    return this.watchers.size;
  }

  /** Walks the tree and watches each directory; refuses (and holds nothing) past a limit. */
  async start(signal: AbortSignal): Promise<void> {
    const onAbort = () => this.stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.add("", { report: false });
    } catch (err) {
      this.close();
      throw err;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Stops every event at once; the OS watches are closed a few hundred per turn of the event loop. */
  close(): void {
    this.stop.abort();
    const left = [...this.watchers.values()];
    this.watchers.clear();
    const closeSome = () => {
      for (const watcher of left.splice(0, CLOSE_PER_TURN)) watcher.close();
      if (left.length > 0) setTimeout(closeSome, 0);
    };
    closeSome();
  }

  /** Watches `rel` and every directory below it; `report`: what is found is reported as created. */
  private async add(rel: string, opts: { report: boolean }): Promise<void> {
    await this.watchOne(rel);
    // Setting up an OS watch is a synchronous system call, and the jail's checks may all be
    // answered without a turn of the event loop: the loop is given one every few milliseconds.
    const yielder = createYielder();
    let entries = 0;
    const walk = this.ctx.fs.walk(this.pathOf(rel), {
      maxDepth: MAX_DEPTH,
      includeHidden: this.opts.includeHidden,
      signal: this.stop.signal,
    });
    for await (const entry of walk) {
      const name = rel === "" ? entry.rel : `${rel}/${entry.rel}`;
      if (++entries > this.opts.limits.maxEntries) throw this.tooBig(`more than ${this.opts.limits.maxEntries} files and directories`);
      if (opts.report) this.opts.onEvent({ kind: "rename", name });
      if (entry.kind === "directory") await this.watchOne(name);
      await yielder.maybeYield();
    }
  }

  private async watchOne(rel: string): Promise<void> {
    if (this.stop.signal.aborted || this.watchers.has(rel)) return;
    const { maxDirectories, bridgeDirectories } = this.opts.limits;
    if (this.watchers.size >= maxDirectories) throw this.tooBig(`more than ${maxDirectories} directories`);
    const others = this.opts.limits.heldByOthers();
    if (others + this.watchers.size >= bridgeDirectories) {
      throw new ToolError(
        "limit_reached",
        `The bridge's watches already hold ${others} of at most ${bridgeDirectories} watched directories; ${this.label()} needs more`,
        { suggestion: "Stop a watch with unwatchFiles (other sessions' end with them), or watch a smaller directory." },
      );
    }
    const { watcher } = await this.ctx.fs.watch(this.pathOf(rel), (event) => this.onEvent(rel, event), {
      onError: (err) => this.ctx.log("warning", `watching ${this.pathOf(rel) || "."} failed: ${err.message}`),
    });
    // Closed (or refused) while the OS watch was being set up: it must not outlive that.
    if (this.stop.signal.aborted) watcher.close();
    else this.watchers.set(rel, watcher);
  }

  private onEvent(dir: string, event: WatchEvent): void {
    if (this.stop.signal.aborted) return;
    const name = event.name === undefined ? (dir === "" ? undefined : dir) : dir === "" ? event.name : `${dir}/${event.name}`;
    this.opts.onEvent({ kind: event.kind, name });
    // A name that appeared or went away may be a directory to watch, or one to stop watching.
    if (event.kind === "rename" && name !== undefined && event.name !== undefined && this.wanted(event.name))
      this.queue = this.queue.then(() => this.follow(name)).catch((err: unknown) => this.incomplete(name, err));
  }

  private async follow(name: string): Promise<void> {
    const stat = await this.ctx.fs.entryStat(this.pathOf(name)).catch(() => undefined);
    if (this.stop.signal.aborted) return;
    if (stat?.isDirectory === true) {
      if (!this.watchers.has(name)) await this.add(name, { report: true });
      return;
    }
    for (const [rel, watcher] of this.watchers) {
      if (rel !== name && !rel.startsWith(`${name}/`)) continue;
      watcher.close();
      this.watchers.delete(rel);
    }
  }

  private incomplete(name: string, err: unknown): void {
    if (this.stop.signal.aborted) return;
    this.opts.onIncomplete(`${name} is not watched: ${err instanceof Error ? err.message : String(err)}`);
  }

  /** A directory name the walk would take: not .git, node_modules and the like, not hidden unless asked. */
  private wanted(base: string): boolean {
    const last = base.slice(base.lastIndexOf("/") + 1);
    return !ALWAYS_SKIPPED.has(last) && (this.opts.includeHidden || !last.startsWith("."));
  }

  private pathOf(rel: string): string {
    if (rel === "") return this.dir === "" ? "." : this.dir;
    return this.dir === "" ? rel : `${this.dir}/${rel}`;
  }

  private label(): string {
    return this.dir === "" ? "the workspace" : this.dir;
  }

  private tooBig(what: string): ToolError {
    return new ToolError(
      "limit_reached",
      `${this.label()} has ${what} to watch (not counting .git, node_modules and what .gitignore ignores); a watch keeps one OS watch per directory, so nothing is watched`,
      {
        suggestion:
          "Watch the subdirectory you care about (path), or narrow with pattern and watch that directory; searchWorkspace or getFileTree answer one-off questions about a big tree.",
      },
    );
  }
}
