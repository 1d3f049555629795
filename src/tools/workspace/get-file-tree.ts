// getFileTree: an indented overview of a directory, cheaper for the model than many listings.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define-tool.ts";
import { renderTree } from "./render-tree.ts";
import { walk } from "./walk.ts";

const PROGRESS_EVERY = 250;

const Entry = v.object({
  path: v.pipe(v.string(), v.description("Path relative to the workspace root.")),
  kind: v.picklist(["file", "directory", "symlink", "other"]),
  size: v.optional(v.pipe(v.number(), v.description("Size in bytes (files only)."))),
});
export type TreeEntry = v.InferOutput<typeof Entry>;

export default defineTool({
  name: "getFileTree",
  title: "File tree",
  description: "Indented tree of a workspace directory (dirs first, sizes, symlinks not followed), skipping node_modules, .git, build output and hidden files. Use to get oriented.",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.description("Directory to list, relative to the workspace root (default: the root)."))),
    maxDepth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description("Levels to descend (1-10).")), 3),
    maxEntries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000), v.description("Stop after this many entries (1-5000).")), 500),
    includeHidden: v.optional(v.pipe(v.boolean(), v.description("Include dot-files and dot-directories (.git is always skipped).")), false),
  }),
  output: v.object({
    root: v.pipe(v.string(), v.description('The listed directory relative to the workspace root ("." for the root).')),
    tree: v.pipe(v.string(), v.description("The same entries as an indented text tree.")),
    entries: v.array(Entry),
    truncated: v.pipe(v.boolean(), v.description("True when maxEntries cut the listing short.")),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const start = await resolveDirectory(ctx, input.path ?? ".");
    const rootRel = ctx.workspace.relative(start) || ".";
    const entries: TreeEntry[] = [];
    // The text tree uses paths relative to the listed directory, which may lie in another
    // workspace folder where root-relative paths are absolute.
    const forTree: TreeEntry[] = [];
    let truncated = false;
    for await (const item of walk(ctx.runtime.fs, start, { maxDepth: input.maxDepth, includeHidden: input.includeHidden, signal: ctx.signal })) {
      if (entries.length >= input.maxEntries) {
        truncated = true;
        break;
      }
      const entry: TreeEntry = { path: ctx.workspace.relative(item.abs), kind: item.kind };
      if (item.kind === "file") entry.size = await sizeOf(ctx, item.abs);
      entries.push(entry);
      forTree.push({ ...entry, path: item.rel });
      if (entries.length % PROGRESS_EVERY === 0) ctx.progress(entries.length, { message: `${entries.length} entries listed` });
    }
    const tree = renderTree(rootRel, forTree, { truncated });
    return { root: rootRel, tree, entries, truncated };
  },
});

export async function resolveDirectory(ctx: ToolContext, path: string): Promise<string> {
  const abs = await ctx.workspace.resolve(path);
  if (!(await ctx.runtime.fs.stat(abs)).isDirectory) {
    throw new ToolError("not_a_directory", `${path} is not a directory`, { suggestion: "Pass a directory, or read the file with readFile." });
  }
  return abs;
}

async function sizeOf(ctx: ToolContext, abs: string): Promise<number | undefined> {
  try {
    return (await ctx.runtime.fs.lstat(abs)).size;
  } catch {
    return undefined;
  }
}
