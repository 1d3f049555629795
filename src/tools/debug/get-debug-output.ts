// getDebugOutput: what the debugged program printed (and the adapter's console messages), paged by
// entry index so a long output is read in parts; plain text, since it is a log.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";

export default defineTool({
  name: "getDebugOutput",
  title: "Debug output",
  description:
    "Reads what the debugged program printed (stdout, stderr, debugger console), paged: call again with the `from` it gives to read on.",
  searchHint: "debug output program stdout stderr console log printed",
  input: v.strictObject({
    sessionId: v.optional(v.pipe(v.string(), v.description("Default: your latest session."))),
    from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Entry to start at (default 0)."))),
    maxChars: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(200_000), v.description("Default 20000."))),
    streams: v.optional(v.pipe(v.array(v.picklist(["stdout", "stderr", "console"])), v.description("Default: all."))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const held = ctx.state(DEBUG_SESSIONS).get(ctx.session, input.sessionId);
    const { session } = held;
    const maxChars = Math.min(input.maxChars ?? 20_000, Math.floor(ctx.settings.maxResultChars / 2));
    const page = session.output.page(input.from ?? 0, { maxChars, categories: input.streams ?? ["stdout", "stderr", "console"] });
    const state = session.runState;
    const status = state.kind === "ended" ? `ended (${state.why})` : state.kind;
    const lines = [`${session.id} (${held.program}) · ${status}`];
    if (page.dropped > 0) lines.push(`[${page.dropped} earlier entries were dropped: the log keeps the last 2 MB]`);
    const text = page.entries.map((e) => (e.category === "stdout" ? e.text : `[${e.category}] ${e.text}`)).join("");
    lines.push("", text === "" ? "(no output yet)" : text.replace(/\n$/, ""));
    if (page.more) lines.push("", `[more: call again with from=${page.next}]`);
    return lines.join("\n");
  },
});
