// watchFiles: starts watching a workspace directory (recursively) for changes; getFileChanges reads
// them, and clients that set a log level also get them as notifications/message. The directory is
// walked and watched one directory at a time (tree-watch.ts), so a big tree never holds the event
// loop, and one with more directories than a watch may hold is refused.
import * as v from "valibot";
import { compileGlob } from "../../lib/glob/index.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { defineTool } from "../platform/define-tool.ts";
import { TreeWatch } from "./tree-watch.ts";
import { MAX_DIRECTORIES_PER_WATCH, MAX_PENDING, record, WATCH_IDLE_MS, WATCHES } from "./watch-store.ts";

export default defineTool({
  name: "watchFiles",
  title: "Watch files for changes",
  description:
    "Watches a workspace directory (recursively, optionally by glob; not .gitignored paths) for created, changed and deleted files; read them with getFileChanges, stop with unwatchFiles.",
  searchHint: "watch files changes monitor directory notify modified created deleted",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root).")), "."),
    pattern: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description('Glob under the directory, e.g. "**/*.ts".'))),
    includeHidden: v.optional(v.pipe(v.boolean(), v.description("Also report dot-files (.git and node_modules never are).")), false),
  }),
  output: v.object({
    watchId: v.string(),
    path: v.string(),
    idleMinutes: v.pipe(v.number(), v.description("The watch closes after this long without getFileChanges.")),
    maxPending: v.pipe(v.number(), v.description("Distinct paths kept between reads; beyond, the read says it overflowed.")),
    directories: v.pipe(
      v.number(),
      v.description(`Directories watched (at most ${MAX_DIRECTORIES_PER_WATCH}; new ones are added as they appear).`),
    ),
  }),
  annotations: { readOnlyHint: true },
  // Walking a tree of a hundred thousand files to watch its directories takes seconds.
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const glob = input.pattern === undefined ? undefined : compileGlob(input.pattern);
    const dir = await ctx.fs.resolve(input.path);
    const rel = ctx.fs.relative(dir);
    const store = ctx.state(WATCHES);
    const watch = store.add(ctx.session, rel, { glob, includeHidden: input.includeHidden });
    const tree = new TreeWatch(ctx, rel, {
      includeHidden: input.includeHidden,
      limits: store.limitsFor(watch),
      onEvent: (event) => record(watch, event),
      onIncomplete: (reason) => {
        // The reader learns to look again; the log says why.
        watch.overflowed = true;
        ctx.log("warning", `watch ${watch.id}: ${reason}`);
      },
    });
    watch.tree = tree;
    try {
      await tree.start(ctx.signal);
      // The session ended while the watch started (its release has run): do not outlive it.
      ctx.signal.throwIfAborted();
    } catch (err) {
      store.remove(watch);
      throw err;
    }
    // ctx.log reaches the session as long as it lasts (logging/setLevel decides what is sent).
    watch.notify = (paths) =>
      ctx.log("info", `${paths.length} path(s) changed under ${rel || "."}`, {
        watchId: watch.id,
        paths: paths.slice(0, 100).map(displayName),
      });
    return {
      watchId: watch.id,
      path: displayName(rel || "."),
      idleMinutes: WATCH_IDLE_MS / 60_000,
      maxPending: MAX_PENDING,
      directories: tree.directories,
    };
  },
});
