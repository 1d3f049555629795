// Input fields several git tools share, described once so they read the same everywhere.
import * as v from "valibot";

/** Files or directories relative to the workspace root, described for what the tool does with them. */
export const PathListInput = (what: string) =>
  v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(1000), v.description(what)));

export const PathsInput = PathListInput("Workspace-relative (default: all).");

export const StatInput = v.optional(v.pipe(v.boolean(), v.description("Per-file line counts only.")), false);

export const ContextLinesInput = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(50), v.description("Context lines per change.")),
);

/** Free text that becomes one argv element's value (`--author=…`): one line, no control characters. */
export const LineInput = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(500),
    v.regex(/^[^\x00-\x1f\x7f]*$/, "one line without control characters"),
    v.description(what),
  );

export const LimitInput = (what: string, { fallback, max }: { fallback: number; max: number }) =>
  v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(`${what} (default ${fallback}, at most ${max}).`)),
    fallback,
  );

export const RefInput = (what: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(512), v.description(what));

/**
 * A stat's options: long paths whole (a cut path cannot be passed back), the +/- graph short (it
 * repeats the counts beside it).
 */
export const STAT_ARGS: readonly string[] = ["--stat=200", "--stat-graph-width=10"];

/**
 * Per-file counts as a model reads them best: git's numstat ("added<TAB>deleted<TAB>path", whole
 * paths, no padding or +/- graph) and the totals line. Smaller than a stat at any path length, and
 * no path is cut. `summary` adds the created, deleted and renamed files and mode changes.
 */
export function countArgs(opts: { summary?: boolean } = {}): string[] {
  return ["--numstat", "--shortstat", ...(opts.summary ? ["--summary"] : [])];
}

export const SummaryInput = v.optional(
  v.pipe(v.boolean(), v.description("With the counts: also the created, deleted and renamed files and mode changes.")),
  false,
);

/** The diff options of getGitDiff and getDiffBetweenRefs. */
export function diffFormatArgs(input: { stat: boolean; contextLines?: number | undefined }): string[] {
  if (input.stat) return [...STAT_ARGS, "--summary"];
  return input.contextLines === undefined ? [] : [`-U${input.contextLines}`];
}
