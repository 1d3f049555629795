// Fs.watch (src/ports/fs.ts) on node:fs watch, which Node, Bun and Deno all provide and which
// delivers the same events on each, recursive included (Linux inotify; checked by the contract
// suite). What differs is smoothed here: Deno reports a missing path through a later "error"
// event (which would crash an unlistened watcher) where Node and Bun throw, and the watched
// directory's own removal has the name "" on Node and Deno, undefined on Bun.
import { statSync, watch, type FSWatcher } from "node:fs";
import type { WatchEvent, WatchOptions, Watcher } from "../../src/ports/fs.ts";
import { toRuntimeError } from "./errors.ts";

export function nodeWatch(path: string, onEvent: (event: WatchEvent) => void, opts: WatchOptions = {}): Watcher {
  let closed = false;
  let watcher: FSWatcher;
  try {
    // One answer everywhere for a path that is not there: ENOENT, now.
    statSync(path);
    // persistent: false is Node's unref; Bun and Deno take unref() below.
    watcher = watch(path, { recursive: opts.recursive === true, persistent: false }, (eventType, filename) => {
      if (closed) return;
      onEvent({
        kind: eventType === "change" ? "change" : "rename",
        name: typeof filename === "string" && filename !== "" ? filename : undefined,
      });
    });
  } catch (err) {
    throw toRuntimeError(err);
  }
  // Always listened: an "error" event nobody listens to throws out of the event loop.
  watcher.on("error", (err) => {
    if (!closed) opts.onError?.(toRuntimeError(err));
  });
  watcher.unref();
  return {
    close: () => {
      if (closed) return;
      closed = true;
      watcher.close();
    },
  };
}
