// clearEditorDecorations: removes decorations this session set, by id or all of them.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { DECORATIONS, decorationKey } from "./decoration-state.ts";

export default defineTool({
  name: "clearEditorDecorations",
  title: "Clear editor decorations",
  description: "Removes line decorations this session set with setEditorDecorations, by id or all of them.",
  searchHint: "clear remove decorations highlights editor marks",
  input: v.strictObject({
    ids: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(500), v.description("Default: all of this session's.")),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const owners = ctx.state(DECORATIONS);
    const ids = owners.owned(ctx.session, input.ids);
    if (ids.length === 0) return "No decorations of this session to clear.";
    const { cleared } = await ctx.extension.request(
      "extension/clearDecorations",
      { ids: ids.map((id) => decorationKey(ctx.session, id)) },
      { signal: ctx.signal },
    );
    owners.forget(ctx.session, ids);
    return `Cleared ${cleared} decoration set${cleared === 1 ? "" : "s"} (${ids.join(", ")}).`;
  },
});
