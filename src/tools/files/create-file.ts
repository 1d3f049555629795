// createFile: a new file with content, or a directory; missing parent directories are made, each
// through its checked parent. An existing file is replaced only with `overwrite` (atomically, its
// mode kept); a hard link never is. The answer does not wait for language servers (a new file may
// make one reload its project): their diagnostics are pending unless waitForDiagnostics asks for them.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { contentHash } from "../../workspace/file-version.ts";
import { splitLast } from "../../workspace/parent-entry.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DiagnosticsField, withEntryDiagnostics, withPendingDiagnostics } from "./entry-diagnostics.ts";

const Created = v.object({
  path: v.string(),
  type: v.picklist(["file", "directory"]),
  replaced: v.pipe(v.boolean(), v.description("An existing file was overwritten.")),
  bytes: v.optional(v.number()),
  hash: v.optional(v.pipe(v.string(), v.description("Content hash, for expectedHash in later edits."))),
  createdDirectories: v.pipe(v.array(v.string()), v.description("Parent directories that were made.")),
  diagnostics: DiagnosticsField,
});

export default defineTool({
  name: "createFile",
  title: "Create a file or directory",
  description:
    "Creates a file with content, or a directory (isDirectory), making missing parent directories; refuses an existing file unless overwrite. Writes atomically.",
  searchHint: "create new file write content make directory mkdir touch",
  input: v.strictObject({
    filePath: v.pipe(v.string(), v.minLength(1), v.description("Path to create, relative to the workspace root.")),
    content: v.optional(v.pipe(v.string(), v.description("The file's content (default empty), written as given.")), ""),
    isDirectory: v.optional(v.pipe(v.boolean(), v.description("Create a directory instead of a file.")), false),
    overwrite: v.optional(v.pipe(v.boolean(), v.description("Replace an existing file.")), false),
    waitForDiagnostics: v.optional(
      v.pipe(
        v.boolean(),
        v.description("Wait (a few seconds at most) for what it did to the running language servers' diagnostics; default: pending."),
      ),
      false,
    ),
  }),
  output: Created,
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    if (input.isDirectory) {
      if (input.content !== "")
        throw new ToolError("invalid_arguments", "A directory takes no content", {
          suggestion: "Leave content out with isDirectory, or create a file.",
        });
      if ((await ctx.fs.entryStat(input.filePath))?.isDirectory)
        throw new ToolError("file_exists", `${input.filePath} already exists`, { suggestion: "It is there already; create files in it." });
      const made = await ctx.fs.makeDirectory(input.filePath, { parents: true });
      return {
        path: displayName(ctx.fs.relative(made.path)),
        type: "directory" as const,
        replaced: false,
        createdDirectories: made.created.slice(0, -1).map(displayName),
      };
    }
    const parents = await makeParents(ctx, input.filePath);
    const existed = (await ctx.fs.entryStat(input.filePath)) !== undefined;
    if (existed && !input.overwrite)
      throw new ToolError("file_exists", `${input.filePath} already exists`, {
        suggestion: "Pass overwrite: true to replace it, or edit it with replaceBlock or editText.",
      });
    const data = new TextEncoder().encode(input.content);
    const target = await ctx.fs.resolve(input.filePath, { mustExist: false });
    const write = () => ctx.fs.writeFile(input.filePath, data, { createOnly: !input.overwrite });
    const { result: path, diagnostics } = input.waitForDiagnostics
      ? await withEntryDiagnostics(ctx, { change: { added: target, replaced: existed }, write })
      : await withPendingDiagnostics(ctx, { created: target, replaced: existed, write });
    return {
      path: displayName(ctx.fs.relative(path)),
      type: "file" as const,
      replaced: existed,
      bytes: data.length,
      hash: await contentHash(data),
      createdDirectories: parents,
      ...(diagnostics.length > 0 ? { diagnostics } : {}),
    };
  },
});

/** Makes the missing directories above `filePath`; returns those made. */
async function makeParents(ctx: ToolContext, filePath: string): Promise<string[]> {
  const { dir } = splitLast(filePath);
  if ((await ctx.fs.entryStat(dir).catch(() => undefined))?.isDirectory) return [];
  const made = await ctx.fs.makeDirectory(dir, { parents: true });
  return made.created.map(displayName);
}
