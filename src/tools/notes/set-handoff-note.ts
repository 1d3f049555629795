// setHandoffNote: leaves a note for the next session, replacing the last one.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { HANDOFF_FILE, MAX_NOTE_CHARS, writeHandoff } from "../../services/notes/handoff-note.ts";

export default defineTool({
  name: "setHandoffNote",
  title: "Set the handoff note",
  description:
    "Sets the handoff note for the next session in this workspace (what was done, decisions, what is next), replacing the previous one.",
  searchHint: "handoff note leave message next session save context summary",
  input: v.strictObject({ note: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_NOTE_CHARS), v.description("The note (Markdown).")) }),
  output: v.object({ file: v.string(), updatedAt: v.string(), characters: v.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const written = await writeHandoff(ctx, input.note);
    return { file: HANDOFF_FILE, updatedAt: written.updatedAt, characters: input.note.length };
  },
});
