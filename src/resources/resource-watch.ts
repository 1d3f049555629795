// What resources/subscribe listens to, one per bridge: a subscription to a URI hears when that
// resource may have changed, debounced, and sessions turn that into notifications/resources/updated.
// Only what is subscribed is watched, with one non-recursive OS watch per directory shared by every
// subscriber (a recursive watch of a large tree costs seconds and hundreds of MB; see
// src/tools/files/tree-watch.ts):
// - a file: its directory's watch, filtered to its name;
// - git status and diff: the .git directory (a commit, stage, checkout or fetch rewrites its index,
//   HEAD or refs), the bridge's own git events, and the files the language servers see change;
// - diagnostics: the language servers' changes (pushed, pulled, or the file changed);
// - the latest test run: each runTests run;
// - a VS Code terminal: its output, followed with the extension's long poll (terminal-resources.ts).
// A name appearing or going in a watched directory changes the resource list (list_changed).
import type { EventBus } from "../capabilities/events/event-bus.ts";
import { fromFileUri } from "../lib/paths/file-uri.ts";
import type { LspService } from "../lsp/lsp-service.ts";
import type { WatchEvent, Watcher } from "../ports/fs.ts";
import type { RecentTests } from "../prompts/recent-tests.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { DIAGNOSTICS_URI, FILE_DIAGNOSTICS_PREFIX, GIT_DIFF_URI, GIT_STATUS_URI, TEST_RESULTS_URI } from "./bridge-resources.ts";
import { ResourceMissing, ResourceRefused } from "./resource-context.ts";
import { followTerminal, terminalIdOf, type TerminalOutputSource } from "./terminal-resources.ts";

/** Updates of one resource closer together than this reach a subscriber as one. */
export const UPDATE_DEBOUNCE_MS = 150;

const GIT_URIS = [GIT_STATUS_URI, GIT_DIFF_URI];
const GIT_EVENTS = ["git.add", "git.commit", "git.checkout", "git.fetch", "git.pull", "git.push", "git.stash"] as const;

export interface ResourceWatchOptions {
  fs: WorkspaceFs;
  lsp: Pick<LspService, "onChange">;
  events: Pick<EventBus, "subscribe">;
  recentTests: Pick<RecentTests, "onRun">;
  /** Reads a VS Code terminal's output (absent: terminals cannot be subscribed to). */
  terminalOutput?: TerminalOutputSource;
  debounceMs?: number;
}

interface DirectoryWatch {
  watcher: Promise<Watcher | undefined>;
  listeners: Set<(event: WatchEvent) => void>;
}

export class ResourceWatch {
  private readonly directories = new Map<string, DirectoryWatch>();
  /** Listeners by the URI they hear (exact). */
  private readonly byUri = new Map<string, Set<() => void>>();
  private readonly listListeners = new Set<() => void>();
  private readonly stops: (() => void)[] = [];
  private disposed = false;

  constructor(private readonly opts: ResourceWatchOptions) {
    this.stops.push(
      opts.lsp.onChange((relative) => {
        this.fire(DIAGNOSTICS_URI);
        this.fire(`${FILE_DIAGNOSTICS_PREFIX}${relative}`);
        for (const uri of GIT_URIS) this.fire(uri);
      }),
      opts.recentTests.onRun(() => this.fire(TEST_RESULTS_URI)),
      ...GIT_EVENTS.map((name) => opts.events.subscribe(name, () => this.fireGit())),
    );
  }

  /** Subscriptions open now (every session). */
  get size(): number {
    let n = 0;
    for (const set of this.byUri.values()) n += set.size;
    return n;
  }

  /** Directories watched now. */
  get watchedDirectories(): number {
    return this.directories.size;
  }

  /**
   * Starts hearing `uri`: `onUpdated` runs (debounced) when it may have changed. Refuses a URI that
   * names nothing served or that nothing here can watch. Returns the function that stops it.
   */
  async subscribe(uri: string, onUpdated: () => void): Promise<() => void> {
    const debounced = debounce(onUpdated, this.opts.debounceMs ?? UPDATE_DEBOUNCE_MS);
    const releases: (() => void)[] = [];
    if (GIT_URIS.includes(uri)) {
      releases.push(await this.watchDirectory(`${this.opts.fs.root}/.git`, () => debounced.call(), { optional: true }));
    } else if (uri === DIAGNOSTICS_URI || uri.startsWith(FILE_DIAGNOSTICS_PREFIX) || uri === TEST_RESULTS_URI) {
      // Heard through the language servers' and runTests' announcements (see the constructor).
    } else if (terminalIdOf(uri) !== undefined && this.opts.terminalOutput !== undefined) {
      releases.push(await followTerminal(this.opts.terminalOutput, { uri, onOutput: () => debounced.call() }));
    } else if (uri.startsWith("bridge://")) {
      throw new ResourceRefused(uri, `${uri} cannot be subscribed to: nothing tells the bridge when it changes; read it again instead`);
    } else {
      releases.push(await this.watchFile(uri, () => debounced.call()));
    }
    const listeners = this.byUri.get(uri) ?? new Set();
    const listener = () => debounced.call();
    listeners.add(listener);
    this.byUri.set(uri, listeners);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      debounced.cancel();
      listeners.delete(listener);
      if (listeners.size === 0) this.byUri.delete(uri);
      for (const release of releases) release();
    };
  }

  /** Hears when the set of resources may have changed (a file appeared or went in a watched directory). */
  onListChanged(listener: () => void): () => void {
    this.listListeners.add(listener);
    return () => {
      this.listListeners.delete(listener);
    };
  }

  /** The resource list changed for a reason outside the watch (the VS Code extension came or went). */
  listChanged(): void {
    for (const listener of [...this.listListeners]) listener();
  }

  dispose(): void {
    this.disposed = true;
    for (const stop of this.stops.splice(0)) stop();
    for (const dir of this.directories.values()) void dir.watcher.then((w) => w?.close());
    this.directories.clear();
    this.byUri.clear();
    this.listListeners.clear();
  }

  private fireGit(): void {
    for (const uri of GIT_URIS) this.fire(uri);
  }

  private fire(uri: string): void {
    for (const listener of [...(this.byUri.get(uri) ?? [])]) listener();
  }

  private async watchFile(uri: string, onChange: () => void): Promise<() => void> {
    const given = fromFileUri(uri);
    if (given === undefined) throw new ResourceMissing(uri, `Resource not found: ${uri}`);
    let path: string;
    try {
      path = await this.opts.fs.resolve(given);
    } catch (err) {
      throw new ResourceMissing(uri, `Resource not found: ${uri} (${err instanceof Error ? err.message : String(err)})`);
    }
    const slash = path.lastIndexOf("/");
    const [dir, name] = [path.slice(0, slash) || "/", path.slice(slash + 1)];
    return this.watchDirectory(dir, (event) => {
      // Some systems do not name the file: then any change in the directory may be this one.
      if (event.name === undefined || event.name === name) onChange();
    });
  }

  private async watchDirectory(dir: string, listener: (event: WatchEvent) => void, opts: { optional?: boolean } = {}): Promise<() => void> {
    let entry = this.directories.get(dir);
    if (entry === undefined) {
      const listeners = new Set<(event: WatchEvent) => void>();
      const watcher = this.opts.fs
        .watch(dir, (event) => {
          if (event.kind === "rename" && !dir.endsWith("/.git")) for (const l of [...this.listListeners]) l();
          for (const l of [...listeners]) l(event);
        })
        .then(
          ({ watcher }) => watcher,
          (err: unknown) => {
            this.directories.delete(dir);
            if (opts.optional) return undefined;
            throw err;
          },
        );
      entry = { watcher, listeners };
      this.directories.set(dir, entry);
    }
    const current = entry;
    current.listeners.add(listener);
    try {
      await current.watcher;
    } catch (err) {
      current.listeners.delete(listener);
      throw new ResourceRefused(dir, `The bridge could not watch ${dir}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.directories.get(dir) !== current) return;
      this.directories.delete(dir);
      if (!this.disposed) void current.watcher.then((w) => w?.close());
    };
  }
}

/** Calls `fn` once, `ms` after the first of a burst of calls. */
function debounce(fn: () => void, ms: number): { call(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
