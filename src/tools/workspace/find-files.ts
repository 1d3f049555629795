// findFiles: files by glob, walked in-process (no ripgrep needed) with the same ignore list as
// getFileTree, so both tools agree on what the workspace contains.
import * as v from "valibot";
import { displayName } from "../../text/display-name.ts";
import { defineTool } from "../define-tool.ts";
import { compileGlob } from "../../glob/index.ts";

/** Deep enough for any real tree; symlinks are not followed, so there are no cycles anyway. */
const MAX_DEPTH = 64;
const PROGRESS_EVERY = 500;

export default defineTool({
  name: "findFiles",
  title: "Find files",
  description: 'Finds files by glob (*, **, ?, [abc], {a,b}); a pattern without "/" matches file names at any depth. Skips node_modules, .git and build output.',
  searchHint: "find files by name glob pattern locate path search filenames",
  input: v.strictObject({
    pattern: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description('Glob, e.g. "*.ts", "src/**/*.test.{ts,tsx}" (paths relative to `path`).')),
    path: v.optional(v.pipe(v.string(), v.description("Directory to search, relative to the workspace root (default: the root)."))),
    maxResults: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10000), v.description("Stop after this many matches (1-10000).")), 200),
    includeHidden: v.optional(v.pipe(v.boolean(), v.description("Also search dot-files and dot-directories (.git is always skipped).")), false),
  }),
  output: v.object({
    files: v.pipe(v.array(v.string()), v.description("Matching paths relative to the workspace root, sorted.")),
    truncated: v.pipe(v.boolean(), v.description("True when maxResults cut the search short.")),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const glob = compileGlob(input.pattern);
    const files: string[] = [];
    let truncated = false;
    let seen = 0;
    for await (const item of ctx.fs.walk(input.path ?? ".", { maxDepth: MAX_DEPTH, includeHidden: input.includeHidden, signal: ctx.signal })) {
      if (++seen % PROGRESS_EVERY === 0) ctx.progress(seen, { message: `${seen} entries searched, ${files.length} matches` });
      if (item.kind === "directory" || !glob.matches(item.rel)) continue;
      if (files.length >= input.maxResults) {
        truncated = true;
        break;
      }
      files.push(displayName(ctx.fs.relative(item.path)));
    }
    files.sort();
    return { files, truncated };
  },
});
