// deleteFile: removes a file, a symlink (the link, never its target) or, with `recursive`, a
// directory. By default it moves the entry to the bridge's trash in the workspace
// (.claude-ide-bridge/trash/<id>/<name>, which no tool lists or searches), and says how to restore
// it: renameFile from there back to where it was. `useTrash: false` deletes for real, through
// descriptors level by level, so a directory swapped for a symlink meanwhile cannot lead it outside.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { splitLast } from "../../workspace/parent-entry.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { ensureDataDir, inDataDir } from "../../services/notes/bridge-data-dir.ts";
import { DiagnosticsField, withEntryDiagnostics } from "./entry-diagnostics.ts";

const Deleted = v.object({
  path: v.string(),
  type: v.picklist(["file", "directory", "symlink", "other"]),
  trashPath: v.optional(v.pipe(v.string(), v.description("Where it is now, when moved to the trash."))),
  restore: v.optional(v.pipe(v.string(), v.description("How to get it back."))),
  diagnostics: DiagnosticsField,
});

export default defineTool({
  name: "deleteFile",
  title: "Delete a file or directory",
  description:
    "Deletes a file, symlink or (recursive) directory; by default moves it to the bridge's trash (.claude-ide-bridge/trash) and says how to restore it. useTrash: false deletes for good.",
  searchHint: "delete remove file directory rm trash recycle",
  input: v.strictObject({
    filePath: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative path to delete.")),
    recursive: v.optional(v.pipe(v.boolean(), v.description("Needed to delete a directory that is not empty.")), false),
    useTrash: v.optional(v.pipe(v.boolean(), v.description("Move to .claude-ide-bridge/trash instead.")), true),
  }),
  output: Deleted,
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(input, ctx) {
    const st = await ctx.fs.entryStat(input.filePath);
    if (st === undefined)
      throw new ToolError("file_not_found", `${input.filePath} does not exist`, {
        suggestion: "Check the spelling, or locate it with findFiles or getFileTree.",
      });
    const { dir, name } = splitLast(input.filePath);
    const rel = ctx.fs.relative(await ctx.fs.resolve(dir));
    const shown = displayName(rel === "" ? name : `${rel}/${name}`);
    if (st.isDirectory && !input.recursive && (await ctx.fs.list(input.filePath)).length > 0) {
      throw new ToolError("invalid_arguments", `${input.filePath} is a directory that is not empty`, {
        suggestion: "Pass recursive: true to delete it with everything in it.",
      });
    }
    // The trash itself (and the bridge's notes) is deleted for real: trashing it into itself cannot work.
    const forGood = !input.useTrash || inDataDir(rel === "" ? name : `${rel}/${name}`);
    // A symlink's resolved path is its target's, which stays: only a file or directory has a delta.
    const removed = st.isSymbolicLink ? undefined : await ctx.fs.resolve(input.filePath);
    const { result, diagnostics } = await withEntryDiagnostics(ctx, {
      change: removed === undefined ? {} : { removed },
      write: async (): Promise<v.InferOutput<typeof Deleted>> =>
        forGood
          ? { path: shown, type: (await ctx.fs.remove(input.filePath, { recursive: input.recursive })).type }
          : moveToTrash(ctx, input.filePath, shown, name),
    });
    return diagnostics.length > 0 ? { ...result, diagnostics } : result;
  },
});

async function moveToTrash(ctx: ToolContext, filePath: string, shown: string, name: string): Promise<v.InferOutput<typeof Deleted>> {
  const id = `${new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-${crypto.randomUUID().slice(0, 6)}`;
  const dir = await ensureDataDir(ctx, `trash/${id}`);
  const trashPath = `${dir}/${name}`;
  const moved = await ctx.fs.rename(filePath, trashPath, { overwrite: false }).catch((err: unknown) => {
    if (err instanceof ToolError && /different filesystems/.test(err.message)) {
      throw new ToolError("invalid_arguments", `${filePath} is on another filesystem than the trash (${dir})`, {
        suggestion: "Pass useTrash: false to delete it for good.",
      });
    }
    throw err;
  });
  await ctx.fs.writeFile(
    `${dir}/restore.json`,
    `${JSON.stringify({ originalPath: ctx.fs.relative(moved.from), type: moved.type, deletedAt: new Date().toISOString() }, null, 2)}\n`,
    { createOnly: true },
  );
  const trashShown = displayName(trashPath);
  return {
    path: shown,
    type: moved.type,
    trashPath: trashShown,
    restore: `renameFile with oldPath "${trashShown}" and newPath "${shown}"`,
  };
}
