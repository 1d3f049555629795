// getCurrentSelection: what the user has selected in VS Code right now.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { SelectionResult, selectionResult } from "./selection-shape.ts";

export default defineTool({
  name: "getCurrentSelection",
  title: "Current editor selection",
  description:
    "Returns the text the user has selected in VS Code right now, with its file and 1-based range (null when no editor is active).",
  searchHint: "current selection selected text highlighted cursor editor what am I looking at",
  input: v.strictObject({}),
  output: v.object({ selection: v.nullable(SelectionResult) }),
  annotations: { readOnlyHint: true },
  slim: true,
  async viaExtension(_input, ctx) {
    const { selection } = await ctx.extension.request("extension/getSelection", {}, { signal: ctx.signal });
    return { selection: selection === null ? null : selectionResult(ctx.fs.root, selection) };
  },
});
