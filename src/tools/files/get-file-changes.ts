// getFileChanges: the polling read of a watch. Returns what changed since the last read, or waits
// (up to waitMs) for the first change; each path says whether it now exists, so "created",
// "changed" and "deleted" describe the file as it is at the read, not a replay of every event.
import * as v from "valibot";
import { displayName } from "../../lib/text/display-name.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { WATCHES, type Watch } from "./watch-store.ts";

const MAX_WAIT_MS = 25_000;

export default defineTool({
  name: "getFileChanges",
  title: "Read watched file changes",
  description:
    "Reads the changes a watchFiles watch saw since the last read (created, changed, deleted paths), optionally waiting up to waitMs for the first one.",
  searchHint: "what changed on disk since watching started: files modified, created or deleted; poll watch events",
  input: v.strictObject({
    watchId: v.pipe(v.string(), v.description("From watchFiles.")),
    waitMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(MAX_WAIT_MS),
        v.description(`Wait this long for a change when there is none yet (0-${MAX_WAIT_MS}).`),
      ),
      0,
    ),
  }),
  output: v.object({
    watchId: v.string(),
    changes: v.array(v.object({ path: v.string(), change: v.picklist(["created", "changed", "deleted"]) })),
    overflowed: v.pipe(v.boolean(), v.description("More paths changed than a watch keeps: look at the directory again.")),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: MAX_WAIT_MS + 5000,
  async handler(input, ctx) {
    const watch = ctx.state(WATCHES).get(ctx.session, input.watchId);
    if (watch.pending.size === 0 && !watch.overflowed && input.waitMs > 0) await nextChange(watch, input.waitMs, ctx.signal);
    const taken = [...watch.pending];
    const overflowed = watch.overflowed;
    watch.pending.clear();
    watch.pendingChars = 0;
    watch.overflowed = false;
    const changes = await Promise.all(
      taken.map(async ([path, kind]) => ({ path: displayName(path || "."), change: await changeOf(ctx, path, kind) })),
    );
    return { watchId: watch.id, changes: changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), overflowed };
  },
});

function nextChange(watch: Watch, waitMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      watch.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    signal.addEventListener("abort", done, { once: true });
    watch.waiters.add(done);
  });
}

async function changeOf(ctx: ToolContext, path: string, kind: "change" | "rename"): Promise<"created" | "changed" | "deleted"> {
  const exists = path === "" || (await ctx.fs.entryStat(path).catch(() => undefined)) !== undefined;
  if (!exists) return "deleted";
  return kind === "rename" ? "created" : "changed";
}
