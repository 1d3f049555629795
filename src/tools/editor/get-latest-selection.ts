// getLatestSelection: the last non-empty selection the user made in VS Code, kept when the focus
// moves on (to the terminal Claude Code runs in).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { SelectionResult, selectionResult } from "./selection-shape.ts";

export default defineTool({
  name: "getLatestSelection",
  title: "Latest editor selection",
  description:
    "Returns the last non-empty selection the user made in VS Code, even after the focus moved away (null when none since it connected).",
  searchHint: "latest last recent selection selected text highlighted editor",
  input: v.strictObject({}),
  output: v.object({ selection: v.nullable(SelectionResult) }),
  annotations: { readOnlyHint: true },
  slim: true,
  async viaExtension(_input, ctx) {
    const latest = ctx.extension.state.latestSelection;
    return { selection: latest === undefined ? null : selectionResult(ctx.fs.root, latest) };
  },
});
