// getHandoffNote: what the last session left for this one.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { readHandoff } from "../../services/notes/handoff-note.ts";

export default defineTool({
  name: "getHandoffNote",
  title: "Get the handoff note",
  description: "Gets the handoff note a previous session left in this workspace (what was done, what is next), with when it was written.",
  searchHint: "handoff note previous session continue context resume what next",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async handler(_input, ctx) {
    const note = await readHandoff(ctx);
    if (note === undefined) return "[no handoff note: none was set in this workspace; setHandoffNote leaves one]";
    return `${note.note}${note.note.endsWith("\n") ? "" : "\n"}[handoff note written ${note.updatedAt || "at an unknown time"}${note.session ? ` by session ${note.session}` : ""}]`;
  },
});
