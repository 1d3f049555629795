// renameFile: moves a file, symlink or directory within the workspace. Only the entry moves:
// imports, references and configuration that name the old path are not updated, and the answer
// says so, so the model goes and fixes them.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { splitLast } from "../../workspace/parent-entry.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DiagnosticsField, withEntryDiagnostics } from "./entry-diagnostics.ts";

export default defineTool({
  name: "renameFile",
  title: "Rename or move a file",
  description:
    "Renames or moves a file, symlink or directory in the workspace, making missing target directories. Updates nothing else: references to the old path stay as they are.",
  searchHint: "rename move file directory mv path relocate",
  input: v.strictObject({
    oldPath: v.pipe(v.string(), v.minLength(1), v.description("What to move, relative to the workspace root.")),
    newPath: v.pipe(v.string(), v.minLength(1), v.description("Where it goes.")),
    overwrite: v.optional(v.pipe(v.boolean(), v.description("Replace an existing file at newPath.")), false),
  }),
  output: v.object({
    from: v.string(),
    to: v.string(),
    type: v.picklist(["file", "directory", "symlink", "other"]),
    replaced: v.pipe(v.boolean(), v.description("A file at newPath was replaced.")),
    note: v.string(),
    diagnostics: DiagnosticsField,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const st = await ctx.fs.entryStat(input.oldPath);
    if (st === undefined) {
      throw new ToolError("file_not_found", `${input.oldPath} does not exist`, {
        suggestion: "Check the spelling, or locate it with findFiles.",
      });
    }
    const { dir } = splitLast(input.newPath);
    if (!(await ctx.fs.entryStat(dir).catch(() => undefined))) await ctx.fs.makeDirectory(dir, { parents: true });
    // A symlink's resolved path is its target's, which stays where it is: only a file or directory has a delta.
    const change = st.isSymbolicLink
      ? {}
      : { removed: await ctx.fs.resolve(input.oldPath), added: await ctx.fs.resolve(input.newPath, { mustExist: false }) };
    const { result: moved, diagnostics } = await withEntryDiagnostics(ctx, {
      change,
      write: () => ctx.fs.rename(input.oldPath, input.newPath, { overwrite: input.overwrite }),
    });
    const from = displayName(ctx.fs.relative(moved.from));
    return {
      from,
      to: displayName(ctx.fs.relative(moved.to)),
      type: moved.type,
      replaced: moved.replaced,
      note: `Only the ${moved.type} moved: imports and references to ${from} were not updated (searchWorkspace finds them).`,
      ...(diagnostics.length > 0 ? { diagnostics } : {}),
    };
  },
});
