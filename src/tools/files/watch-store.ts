// Open file watches. A watch is a TreeWatch (tree-watch.ts: one OS watch per directory, added as a
// walk finds them) on a workspace directory; its events
// are merged per path into a bounded set of pending changes that getFileChanges drains (waiting for
// the next change when asked to), and that are also announced as notifications/message (logger
// "watchFiles") to a client that set a log level. Claude Code does not show server notifications to
// the model, so the polling read is what the model uses; the notifications are for clients that
// consume them (over WebSocket and stdio they reach the session; see the README for HTTP).
// Watches belong to their session: they close when it ends, when the bridge stops, and after a quiet
// spell (checked whenever the store is used); the OS watcher never keeps the bridge alive.
// What a watch may hold is bounded: its directories (MAX_DIRECTORIES_PER_WATCH, and
// MAX_WATCHED_DIRECTORIES across the bridge) and its pending paths (MAX_PENDING, MAX_PENDING_CHARS),
// so the bridge's watches together hold at most a few tens of megabytes (README, "Watching files").
import { ToolError } from "../../errors.ts";
import type { GlobMatcher } from "../../lib/glob/index.ts";
import { ALWAYS_SKIPPED } from "../../lib/ignore/visibility.ts";
import type { WatchEvent } from "../../ports/fs.ts";
import { defineToolsetState, type ToolsetState } from "../../capabilities/toolset-state.ts";
import type { TreeWatchLimits } from "./tree-watch.ts";

export const WATCH_IDLE_MS = 30 * 60 * 1000;
export const MAX_WATCHES_PER_SESSION = 8;
export const MAX_WATCHES = 32;
/** Distinct paths kept between two reads; past it (or MAX_PENDING_CHARS) the watch says it overflowed. */
export const MAX_PENDING = 1000;
/** Characters of the pending paths of one watch (1000 paths of 4 KB would be 8 MB). */
export const MAX_PENDING_CHARS = 128 * 1024;
/**
 * One OS watch per directory: about 0.5 KB of heap and 3 KB of resident memory each (measured), and
 * inotify's per-user budget (8,192 on older kernels) is shared with every other program.
 */
export const MAX_DIRECTORIES_PER_WATCH = 4096;
export const MAX_WATCHED_DIRECTORIES = 8192;
/** Files and directories a watch's walk passes at most: bounds the time it takes to start. */
export const MAX_WALKED_ENTRIES = 250_000;
/** Changes are announced at most this often, merged. */
const NOTIFY_EVERY_MS = 250;

export interface Watch {
  readonly id: string;
  readonly session: string;
  /** Root-relative directory watched ("" for the root). */
  readonly dir: string;
  lastUsed: number;
  /** Root-relative path -> what the events said ("rename": appeared or went away). */
  readonly pending: Map<string, "change" | "rename">;
  /** Characters of the keys of `pending`. */
  pendingChars: number;
  overflowed: boolean;
  readonly filter: WatchFilter;
  readonly waiters: Set<() => void>;
  /** The OS watches (a TreeWatch once started). */
  tree: { close(): void; readonly directories: number } | undefined;
  notify: ((paths: string[]) => void) | undefined;
  notifyTimer: ReturnType<typeof setTimeout> | undefined;
}

interface WatchFilter {
  glob: GlobMatcher | undefined;
  includeHidden: boolean;
}

export class WatchStore implements ToolsetState {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly now: () => number = Date.now) {}

  add(session: string, dir: string, filter: WatchFilter): Watch {
    this.expire();
    const mine = [...this.watches.values()].filter((w) => w.session === session);
    if (mine.length >= MAX_WATCHES_PER_SESSION || this.watches.size >= MAX_WATCHES) {
      throw new ToolError(
        "limit_reached",
        `Too many open watches (${mine.length} in this session, at most ${MAX_WATCHES_PER_SESSION}; ${this.watches.size} in all, at most ${MAX_WATCHES})`,
        {
          suggestion:
            mine.length > 0
              ? `Stop one with unwatchFiles: ${mine.map((w) => w.id).join(", ")}.`
              : "Wait for other sessions' watches to end, or watch one directory higher up instead of several.",
        },
      );
    }
    const watch: Watch = {
      id: `watch-${crypto.randomUUID().slice(0, 8)}`,
      session,
      dir,
      lastUsed: this.now(),
      pending: new Map(),
      pendingChars: 0,
      overflowed: false,
      filter,
      waiters: new Set(),
      tree: undefined,
      notify: undefined,
      notifyTimer: undefined,
    };
    this.watches.set(watch.id, watch);
    return watch;
  }

  get(session: string, id: string): Watch {
    this.expire();
    const watch = this.watches.get(id);
    if (watch === undefined || watch.session !== session) {
      throw new ToolError(
        "watch_not_found",
        `No watch ${id} in this session (stopped, or closed after ${WATCH_IDLE_MS / 60_000} minutes without a read)`,
        { suggestion: "Start a new one with watchFiles." },
      );
    }
    watch.lastUsed = this.now();
    return watch;
  }

  remove(watch: Watch): void {
    this.watches.delete(watch.id);
    watch.tree?.close();
    if (watch.notifyTimer !== undefined) clearTimeout(watch.notifyTimer);
    for (const wake of watch.waiters) wake();
  }

  releaseSession(session: string): void {
    for (const watch of this.watches.values()) if (watch.session === session) this.remove(watch);
  }

  dispose(): void {
    for (const watch of this.watches.values()) this.remove(watch);
  }

  /** What a new watch of `watch`'s may hold: its own caps, and the directories the other watches hold. */
  limitsFor(watch: Watch): TreeWatchLimits {
    return {
      maxDirectories: MAX_DIRECTORIES_PER_WATCH,
      maxEntries: MAX_WALKED_ENTRIES,
      bridgeDirectories: MAX_WATCHED_DIRECTORIES,
      heldByOthers: () => {
        let held = 0;
        for (const other of this.watches.values()) if (other !== watch) held += other.tree?.directories ?? 0;
        return held;
      },
    };
  }

  /** Directories watched by every watch of the bridge. */
  get directories(): number {
    let held = 0;
    for (const watch of this.watches.values()) held += watch.tree?.directories ?? 0;
    return held;
  }

  /** Open watches, for tests and status. */
  get size(): number {
    return this.watches.size;
  }

  private expire(): void {
    const now = this.now();
    for (const watch of this.watches.values()) if (now - watch.lastUsed > WATCH_IDLE_MS) this.remove(watch);
  }
}

/** The file watches of the bridge. */
export const WATCHES = defineToolsetState("files.watches", () => new WatchStore());

/** Records one event of `watch` (its name is relative to the watched directory). */
export function record(watch: Watch, event: WatchEvent): void {
  const { name } = event;
  if (name !== undefined && !wanted(watch.filter, name)) return;
  const rel = name === undefined ? watch.dir : watch.dir === "" ? name : `${watch.dir}/${name}`;
  const known = watch.pending.has(rel);
  if (!known && (watch.pending.size >= MAX_PENDING || watch.pendingChars + rel.length > MAX_PENDING_CHARS)) watch.overflowed = true;
  else {
    // A name that appeared or went away at any point says so, whatever came after.
    watch.pending.set(rel, watch.pending.get(rel) === "rename" ? "rename" : event.kind);
    if (!known) watch.pendingChars += rel.length;
  }
  for (const wake of watch.waiters) wake();
  watch.waiters.clear();
  scheduleNotice(watch);
}

function wanted(filter: WatchFilter, name: string): boolean {
  const parts = name.split("/");
  if (parts.some((p) => ALWAYS_SKIPPED.has(p) || (!filter.includeHidden && p.startsWith(".")))) return false;
  return filter.glob === undefined || filter.glob.matches(name);
}

function scheduleNotice(watch: Watch): void {
  if (watch.notify === undefined || watch.notifyTimer !== undefined) return;
  watch.notifyTimer = setTimeout(() => {
    watch.notifyTimer = undefined;
    watch.notify?.([...watch.pending.keys()]);
  }, NOTIFY_EVERY_MS);
}
