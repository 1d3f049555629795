// findFiles: files by glob. The file set is the search tools' (src/services/search/file-list.ts):
// `rg --files` when rg is on PATH, the built-in walk otherwise, .gitignore honoured either way and
// the same answer both ways. The glob is matched here, never handed to rg, whose include globs
// would let gitignored files back in. rg's names are checked through the jail before they are shown.
// The answer is plain lines, one path each (as Claude Code's Glob answers, relative and so shorter):
// a list of paths read as JSON costs the model a quote pair and a comma per path for nothing. Names
// are escaped (displayName), so a line is always one path; a cut list ends with a note after an
// empty line, which no path can be.
import * as v from "valibot";
import { compileGlob } from "../../lib/glob/index.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { defineTool } from "../platform/define-tool.ts";
import { listFiles, stillInside } from "../../services/search/file-list.ts";

/** Room kept under the result cap for the note that says the list was cut. */
const NOTE_ROOM = 200;

export default defineTool({
  name: "findFiles",
  title: "Find files",
  description:
    'Finds files by glob (*, **, ?, [abc], {a,b}); a pattern without "/" matches names at any depth. Honours .gitignore; skips node_modules, .git and build output.',
  searchHint: "find files by name glob pattern locate path search filenames",
  input: v.strictObject({
    pattern: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description('Glob relative to path, e.g. "src/**/*.ts".')),
    path: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root)."))),
    maxResults: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10000), v.description("Most matches, in path order.")),
      200,
    ),
    includeHidden: v.optional(v.pipe(v.boolean(), v.description("Include dot-files (never .git).")), false),
    includeIgnored: v.optional(v.pipe(v.boolean(), v.description("Include ignored files.")), false),
  }),
  annotations: { readOnlyHint: true },
  requires: { optionalProbes: ["rg"] },
  largeResult: true,
  async handler(input, ctx) {
    const glob = compileGlob(input.pattern);
    const listed = await listFiles(ctx, input.path ?? ".", { includeHidden: input.includeHidden, gitignore: !input.includeIgnored });
    const prefix = ctx.fs.relative(listed.dir);
    const matching = listed.files.filter((rel) => glob.matches(rel));
    const shown = matching.slice(0, input.maxResults).map((rel) => (prefix === "" ? rel : `${prefix}/${rel}`));
    const files = (listed.via === "rg" ? await stillInside(ctx, shown) : shown).map(displayName);
    if (files.length === 0) return `No file matches ${input.pattern}${prefix === "" ? "" : ` under ${prefix}`}.`;
    // Whole lines under the result cap, so the cap never cuts a path in two.
    const room = ctx.settings.maxResultChars - NOTE_ROOM;
    let kept = 0;
    for (let used = 0; kept < files.length && used + (files[kept]?.length ?? 0) + 1 <= room; kept++) used += (files[kept]?.length ?? 0) + 1;
    const list = files.slice(0, kept).join("\n");
    if (kept === files.length && matching.length <= input.maxResults) return list;
    const more = kept < files.length ? "narrow the pattern or path" : `maxResults (now ${input.maxResults}) shows more`;
    return `${list}\n\n[${kept} of ${matching.length} files shown; ${more}]`;
  },
});
