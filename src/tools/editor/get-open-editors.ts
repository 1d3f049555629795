// getOpenEditors: the tabs open in VS Code, so the model knows what the user is working on.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { shownPath } from "./editor-files.ts";

export default defineTool({
  name: "getOpenEditors",
  title: "Open editors",
  description: "Lists the files open in VS Code tabs: which is active, which have unsaved changes, their language and length.",
  searchHint: "open editors tabs files editing active dirty unsaved",
  input: v.strictObject({}),
  output: v.object({
    editors: v.array(
      v.object({
        file: v.pipe(v.string(), v.description("Relative to the workspace root when inside it; a URI for untitled or virtual documents.")),
        active: v.boolean(),
        dirty: v.pipe(v.boolean(), v.description("Has unsaved changes.")),
        preview: v.boolean(),
        languageId: v.string(),
        lineCount: v.number(),
        group: v.pipe(v.number(), v.description("Editor group (column), 1-based.")),
      }),
    ),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  async viaExtension(_input, ctx) {
    const { tabs } = await ctx.extension.request("extension/getOpenEditors", {}, { signal: ctx.signal });
    return {
      editors: tabs.map((t) => ({
        file: t.uri.startsWith("file://") ? shownPath(ctx.fs.root, t.fileName) : t.uri,
        active: t.isActive && t.isGroupActive,
        dirty: t.isDirty,
        preview: t.isPreview,
        languageId: t.languageId,
        lineCount: t.lineCount,
        group: t.groupIndex + 1,
      })),
    };
  },
});
