// watchActivityLog: waits for the next activity (long poll) instead of polling getActivityLog: it
// answers as soon as an entry after `after` matches, or empty when `waitMs` passes or the call is
// cancelled (the call's AbortSignal ends the wait at once).
import * as v from "valibot";
import type { ActivityEntry } from "../../capabilities/activity/activity-entry.ts";
import { defineTool } from "../platform/define-tool.ts";
import { EntryFilter, EntryOut, entryOut, matches } from "./activity-schema.ts";
import { monitorOf } from "./bridge-monitor.ts";

const MAX_WAIT_MS = 55_000;

export default defineTool({
  name: "watchActivityLog",
  title: "Watch the activity log",
  description:
    "Waits until new tool calls or bridge events arrive after a seq (long poll, up to 55 s) and returns them; empty when nothing came in time.",
  searchHint: "wait for the next tool call or event to happen: watch, tail, follow the live activity log (long poll)",
  input: v.strictObject({
    after: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description("Entries after this seq (getActivityLog's lastSeq); default: only what comes from now on."),
      ),
    ),
    waitMs: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_WAIT_MS), v.description("How long to wait (default 25000).")),
    ),
    ...EntryFilter,
  }),
  output: v.object({
    entries: v.array(EntryOut),
    lastSeq: v.pipe(v.number(), v.description("Pass as `after` to wait for what comes next.")),
    timedOut: v.pipe(v.boolean(), v.description("Nothing matching arrived within waitMs.")),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: MAX_WAIT_MS + 5000,
  async handler(input, ctx) {
    const log = monitorOf(ctx).activity;
    const deadline = Date.now() + (input.waitMs ?? 25_000);
    let after = input.after ?? log.lastSeq;
    for (;;) {
      const remaining = deadline - Date.now();
      const fresh: ActivityEntry[] =
        remaining > 0 ? await log.next(after, { signal: ctx.signal, timeoutMs: remaining }) : log.entries(after);
      const found = fresh.filter((e) => matches(e, input));
      if (found.length > 0) return { entries: found.map(entryOut), lastSeq: found.at(-1)?.seq ?? after, timedOut: false };
      after = fresh.at(-1)?.seq ?? after;
      if (fresh.length === 0 || Date.now() >= deadline || ctx.signal.aborted) return { entries: [], lastSeq: after, timedOut: true };
    }
  },
});
