// getActivityLog: the bridge's recent tool calls and lifecycle events (the last 500 kept), newest
// first, filtered; metadata only (no arguments, results or file content).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { EntryFilter, EntryOut, entryOut, matches } from "./activity-schema.ts";
import { monitorOf } from "./bridge-monitor.ts";

export default defineTool({
  name: "getActivityLog",
  title: "Activity log",
  description:
    "Lists the bridge's recent tool calls (tool, session, client, duration, outcome) and lifecycle events (sessions, extension, language servers, rate limits), newest first.",
  searchHint: "activity log history recent tool calls events audit what happened errors",
  input: v.strictObject({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("At most this many entries (default 50).")),
      50,
    ),
    after: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Only entries with a greater seq."))),
    ...EntryFilter,
  }),
  output: v.object({
    entries: v.array(EntryOut),
    matched: v.pipe(v.number(), v.description("Entries that matched, before the limit.")),
    lastSeq: v.pipe(v.number(), v.description("The newest entry's seq: pass it as `after` (or to watchActivityLog) for what comes next.")),
    kept: v.pipe(v.number(), v.description("Entries the log keeps now (the oldest go first past its capacity).")),
    capacity: v.number(),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const log = monitorOf(ctx).activity;
    const all = log.entries(input.after ?? 0);
    const found = all.filter((e) => matches(e, input));
    return {
      entries: found.slice(-input.limit).reverse().map(entryOut),
      matched: found.length,
      lastSeq: log.lastSeq,
      kept: log.entries().length,
      capacity: log.capacity,
    };
  },
});
