// The shape of activity entries in tool results: one flat object, `kind` says which fields apply.
import * as v from "valibot";
import type { ActivityEntry } from "../../capabilities/activity/activity-entry.ts";
import { iso } from "./bridge-monitor.ts";

export const EntryOut = v.object({
  seq: v.number(),
  at: v.pipe(v.string(), v.description("ISO time the call finished or the event happened.")),
  kind: v.picklist(["call", "event"]),
  tool: v.optional(v.string()),
  session: v.optional(v.string()),
  client: v.optional(v.string()),
  durationMs: v.optional(v.number()),
  outcome: v.optional(v.pipe(v.string(), v.description('"ok" or the error code.'))),
  resultChars: v.optional(v.number()),
  source: v.optional(v.string()),
  event: v.optional(v.string()),
  detail: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()]))),
});
export type EntryOut = v.InferOutput<typeof EntryOut>;

export function entryOut(e: ActivityEntry): EntryOut {
  if (e.kind === "event") {
    return {
      seq: e.seq,
      at: iso(e.at),
      kind: "event",
      source: e.source,
      event: e.event,
      ...(Object.keys(e.detail).length > 0 && { detail: { ...e.detail } }),
    };
  }
  return {
    seq: e.seq,
    at: iso(e.at),
    kind: "call",
    tool: e.tool,
    session: e.session,
    ...(e.client !== undefined && { client: e.client }),
    durationMs: e.durationMs,
    outcome: e.outcome,
    ...(e.resultChars !== undefined && { resultChars: e.resultChars }),
  };
}

export const EntryFilter = {
  tool: v.optional(v.pipe(v.string(), v.description("Only calls of this tool."))),
  session: v.optional(v.pipe(v.string(), v.description("Only this session's calls and events."))),
  kind: v.optional(v.pipe(v.picklist(["call", "event"]), v.description('"call": tool calls only; "event": lifecycle events only.'))),
  errorsOnly: v.optional(v.pipe(v.boolean(), v.description("Only calls that ended in an error."))),
};

export function matches(e: ActivityEntry, f: { tool?: string; session?: string; kind?: "call" | "event"; errorsOnly?: boolean }): boolean {
  if (f.kind !== undefined && e.kind !== f.kind) return false;
  if (f.tool !== undefined && (e.kind !== "call" || e.tool !== f.tool)) return false;
  if (f.errorsOnly && (e.kind !== "call" || e.outcome === "ok")) return false;
  if (f.session !== undefined && (e.kind === "call" ? e.session : e.detail.session) !== f.session) return false;
  return true;
}
