// searchWorkspace: text search across the workspace, with ripgrep when it is on PATH and the
// built-in engine otherwise, the same answer either way (tested). Regex (ripgrep's dialect, on a
// linear-time engine, so no pattern freezes the bridge) or literal; .gitignore respected.
import * as v from "valibot";
import { compilePathFilter } from "../../lib/ignore/visibility.ts";
import { compileRegex } from "../../lib/regex/index.ts";
import { defineTool } from "../platform/define-tool.ts";
import { firstHits, renderFileCounts, renderHits } from "./search-hits.ts";
import { MAX_RG_OUTPUT, searchBuiltIn, searchWithRg, type SearchRequest } from "./search-engines.ts";

/** Matching lines counted at most for filesOnly. */
const FILES_ONLY_LIMIT = 100_000;

export const SearchScopeFields = {
  path: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root).")), "."),
  include: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
      v.maxLength(50),
      v.description('Only files matching a glob, e.g. ["*.ts"].'),
    ),
    [],
  ),
  exclude: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))), v.maxLength(50), v.description("Globs to leave out.")),
    [],
  ),
  includeHidden: v.optional(v.pipe(v.boolean(), v.description("Include dot-files.")), false),
  includeIgnored: v.optional(v.pipe(v.boolean(), v.description("Include ignored files.")), false),
};

export const PatternFields = {
  pattern: v.pipe(v.string(), v.minLength(1), v.maxLength(4000), v.description("Regex (ripgrep), or text with literal.")),
  literal: v.optional(v.pipe(v.boolean(), v.description("Match the pattern as plain text.")), false),
  caseSensitive: v.optional(v.pipe(v.boolean(), v.description("false ignores case.")), true),
};

export default defineTool({
  name: "searchWorkspace",
  title: "Search the workspace",
  description:
    "Searches file contents by regex or literal text (ripgrep when present, same results without), honouring .gitignore; results per file as line: text, with context lines.",
  searchHint:
    "grep or search the code for a string, text or regex pattern across the workspace files; ripgrep rg find in files, occurrences",
  input: v.strictObject({
    ...PatternFields,
    ...SearchScopeFields,
    contextLines: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10), v.description("Lines of context around each match (0-10).")),
      0,
    ),
    maxResults: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(5000),
        v.description("Matching lines shown at most (1-5000), in path order; files with filesOnly."),
      ),
      200,
    ),
    filesOnly: v.optional(v.pipe(v.boolean(), v.description("List the matching files with their match counts, not the lines.")), false),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const request: SearchRequest = {
      dir: input.path,
      pattern: input.pattern,
      // Compiled here whichever engine runs, so both accept and refuse the same patterns.
      regex: compileRegex(input.pattern, { literal: input.literal, caseInsensitive: !input.caseSensitive }),
      literal: input.literal,
      caseSensitive: input.caseSensitive,
      include: input.include,
      exclude: input.exclude,
      filter: compilePathFilter(input.include, input.exclude),
      context: input.filesOnly ? 0 : input.contextLines,
      // Files only: every matching line is counted (rg's output cap still bounds the work).
      limit: input.filesOnly ? FILES_ONLY_LIMIT : input.maxResults + 1,
      includeHidden: input.includeHidden,
      gitignore: !input.includeIgnored,
    };
    const useRg = (await ctx.probes.get("rg")).available;
    const found = useRg ? await searchWithRg(ctx, request) : await searchBuiltIn(ctx, request);
    const text = input.filesOnly
      ? renderFileCounts(found.files, { maxResults: input.maxResults, maxChars: ctx.settings.maxResultChars })
      : renderHits(firstHits(found.files, request.limit), {
          maxResults: input.maxResults,
          maxChars: ctx.settings.maxResultChars,
          context: input.contextLines,
        });
    return found.outputCut
      ? `${text}\n[rg's output passed ${MAX_RG_OUTPUT / (1024 * 1024)} MB and was cut: results are from part of the workspace only; narrow the search]`
      : text;
  },
});
