// getFileTree: an indented overview of a directory, cheaper for the model than many listings. Plain
// text: the tree already says everything (a JSON copy of the entries doubled the result). Always the
// built-in walk, never `rg --files`: a tree shows directories, empty ones and symlinks too, which rg
// does not list; its files are the ones rg would list (src/lib/ignore/visibility.ts).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { renderTree, type TreeItem } from "./render-tree.ts";

const PROGRESS_EVERY = 250;

export default defineTool({
  name: "getFileTree",
  title: "File tree",
  description:
    "Shows an indented tree of a workspace directory (dirs first, sizes, symlinks not followed), honouring .gitignore and skipping node_modules, .git, build output and hidden files.",
  searchHint: "file tree directory structure list folders project layout ls",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root)."))),
    maxDepth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description("Levels to descend (1-10).")), 3),
    maxEntries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000), v.description("Most entries listed.")), 500),
    includeHidden: v.optional(v.pipe(v.boolean(), v.description("Include dot-files (never .git).")), false),
    includeIgnored: v.optional(v.pipe(v.boolean(), v.description("Include what .gitignore ignores.")), false),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const dir = input.path ?? ".";
    const items: TreeItem[] = [];
    let truncated = false;
    for await (const item of ctx.fs.walk(dir, {
      maxDepth: input.maxDepth,
      includeHidden: input.includeHidden,
      gitignore: !input.includeIgnored,
      sizes: true,
      signal: ctx.signal,
    })) {
      if (items.length >= input.maxEntries) {
        truncated = true;
        break;
      }
      items.push({ path: item.rel, kind: item.kind, size: item.size });
      if (items.length % PROGRESS_EVERY === 0) ctx.progress(items.length, { message: `${items.length} entries listed` });
    }
    const root = ctx.fs.relative(await ctx.fs.resolve(dir)) || ".";
    return renderTree(root, items, { truncated });
  },
});
