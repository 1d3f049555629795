// The two engines behind searchWorkspace, giving the same FileHits (src/tools/search/search-hits.ts):
// ripgrep when it is on PATH, and the built-in one (the walk of src/workspace/walk.ts and the regex
// of src/regex) otherwise. The pattern was compiled by the built-in regex first in both cases, so
// the dialect, and what is refused, is the same.
import { ToolError } from "../../errors.ts";
import type { PathFilter } from "../../lib/ignore/visibility.ts";
import type { Regex } from "../../lib/regex/index.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { listFiles } from "../../services/search/file-list.ts";
import { alwaysSkippedGlobs, visibilityFlags } from "../../services/search/rg-flags.ts";
import { runRg } from "../../services/search/run-rg.ts";
import { withContext, type FileHits } from "./search-hits.ts";
import { createVisibilityCheck } from "./visibility-check.ts";
import { createYielder } from "../../lib/yield-now.ts";

export interface SearchRequest {
  dir: string;
  pattern: string;
  regex: Regex;
  literal: boolean;
  caseSensitive: boolean;
  include: readonly string[];
  exclude: readonly string[];
  filter: PathFilter;
  context: number;
  /** Stop once this many matching lines are found (the built-in engine; rg finds all). */
  limit: number;
  includeHidden: boolean;
  gitignore: boolean;
}

/** rg's output for a search that matches nearly everything is cut here (and said to be). */
export const MAX_RG_OUTPUT = 32 * 1024 * 1024;
/** Larger files are not searched by the built-in engine (rg has no such limit; see the README). */
const MAX_SEARCHED_FILE_BYTES = 64 * 1024 * 1024;
/** A NUL byte in this much of a file makes it binary and unsearched, as in rg. */
const BINARY_SNIFF_BYTES = 64 * 1024;
const PROGRESS_EVERY_FILES = 250;

export async function searchWithRg(ctx: ToolContext, req: SearchRequest): Promise<{ files: FileHits[]; outputCut: boolean }> {
  const dir = await ctx.fs.resolve(req.dir);
  const args = ["--no-heading", "--with-filename", "--line-number", "--null", ...visibilityFlags(req), req.caseSensitive ? "-s" : "-i"];
  if (req.literal) args.push("-F");
  if (req.context > 0) args.push("-C", String(req.context));
  for (const glob of req.include) args.push("-g", glob);
  for (const glob of req.exclude) args.push("-g", `!${glob}`);
  args.push(...alwaysSkippedGlobs(), "-e", req.pattern, "--", dir);
  let seen = 0;
  const rel = ctx.fs.relative(dir);
  const result = await runRg(ctx, dir, {
    args,
    maxOutputBytes: MAX_RG_OUTPUT,
    onOutput: (stream, text) => {
      if (stream !== "stdout") return;
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) seen++;
      if (seen > 0) ctx.progress(seen, { message: `${seen} lines of results from rg` });
    },
  });
  let files = parseRgOutput(ctx, result.stdout, result.stdoutTruncated);
  if (req.include.length > 0) {
    // rg's include globs let ignored and hidden files back in; the bridge's do not.
    const check = createVisibilityCheck(ctx, dir, req);
    const prefix = rel === "" ? "" : `${rel}/`;
    const kept: FileHits[] = [];
    for (const file of files) if (await check.visible(file.path.slice(prefix.length))) kept.push(file);
    files = kept;
  }
  return { files: await confirmedThroughJail(ctx, files, req.limit), outputCut: result.stdoutTruncated };
}

/**
 * rg reads files by path, so a directory swapped for a symlink while it runs makes it read outside
 * the workspace. Only text read through the jail is shown: each file rg found (in path order, until
 * `limit` matching lines) is read again through its checked directory, and kept only when every
 * line rg reported is that file's line. A file that changed meanwhile is left out, as if rg had
 * run a moment later.
 */
async function confirmedThroughJail(ctx: ToolContext, files: readonly FileHits[], limit: number): Promise<FileHits[]> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const byPath = new Map(sorted.map((f) => [f.path, f]));
  const kept: FileHits[] = [];
  let found = 0;
  const reads = ctx.fs.readMany(
    sorted.map((f) => f.path),
    { maxBytes: MAX_SEARCHED_FILE_BYTES },
  );
  try {
    for await (const { path, bytes } of reads) {
      if (found >= limit) break;
      const hits = byPath.get(path);
      const text = bytes === undefined ? undefined : searchableText(bytes);
      if (hits === undefined || text === undefined) continue;
      const lines = text.split("\n");
      if (!hits.lines.every((hit) => lines[hit.n - 1] === hit.text)) continue;
      kept.push(hits);
      found += hits.lines.filter((hit) => hit.match).length;
    }
  } finally {
    await reads.return(undefined);
  }
  return kept;
}

function parseRgOutput(ctx: ToolContext, stdout: string, truncated: boolean): FileHits[] {
  const byFile = new Map<string, { n: number; text: string; match: boolean }[]>();
  const lines = stdout.split("\n");
  // A cut output ends in the middle of a line: that line is dropped.
  if (truncated || lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) {
    const nul = line.indexOf("\0");
    if (nul < 0) continue; // "--" between context groups
    const path = line.slice(0, nul);
    const m = /^(\d+)([:-])/.exec(line.slice(nul + 1, nul + 16));
    if (m === null) continue;
    const list = byFile.get(path) ?? [];
    list.push({ n: Number(m[1]), text: line.slice(nul + 1 + (m[0] as string).length), match: m[2] === ":" });
    byFile.set(path, list);
  }
  // rg was given the real absolute directory, so every path it prints is inside it.
  return [...byFile].map(([path, hits]) => ({ path: ctx.fs.relative(path as WorkspacePath), lines: hits }));
}

export async function searchBuiltIn(ctx: ToolContext, req: SearchRequest): Promise<{ files: FileHits[]; outputCut: boolean }> {
  const listed = await listFiles(ctx, req.dir, {
    includeHidden: req.includeHidden,
    gitignore: req.gitignore,
    builtIn: true,
    filter: req.filter,
  });
  const prefix = ctx.fs.relative(listed.dir);
  const files: FileHits[] = [];
  let found = 0;
  let searched = 0;
  const paths = listed.files.map((rel) => (prefix === "" ? rel : `${prefix}/${rel}`));
  const reads = ctx.fs.readMany(paths, { maxBytes: MAX_SEARCHED_FILE_BYTES });
  const yielder = createYielder();
  try {
    for await (const { path, bytes } of reads) {
      if (found >= req.limit) break;
      if (ctx.signal.aborted)
        throw new ToolError("cancelled", "Cancelled while searching", {
          suggestion: "Search a subdirectory, or narrow the include globs.",
        });
      if (++searched % PROGRESS_EVERY_FILES === 0)
        ctx.progress(searched, { total: paths.length, message: `${searched} of ${paths.length} files searched, ${found} matching lines` });
      // Within a chunk of files the loop runs on resolved promises only: give the event loop turns.
      await yielder.maybeYield();
      const text = bytes === undefined ? undefined : searchableText(bytes);
      // Most files of a search lack the pattern's required literal: they are not split into lines.
      if (text === undefined || !req.regex.mayMatch(text)) continue;
      const lines = text.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      const matching: number[] = [];
      lines.forEach((line, i) => {
        if (req.regex.test(line)) matching.push(i + 1);
      });
      if (matching.length === 0) continue;
      found += matching.length;
      files.push({ path, lines: withContext(lines, matching, { context: req.context }) });
    }
  } finally {
    await reads.return(undefined);
  }
  return { files, outputCut: false };
}

/** A file's text for searching, or undefined for what rg would not search (binary). */
function searchableText(bytes: Uint8Array): string | undefined {
  const nul = bytes.indexOf(0);
  if (nul >= 0 && nul < BINARY_SNIFF_BYTES) return undefined;
  return decoder.decode(nul < 0 ? bytes : bytes.subarray(0, searchedBeforeBinary(bytes, nul)));
}

/**
 * How much of a file rg searches when binary data comes after its first window: it reads windows
 * of BINARY_SNIFF_BYTES, each starting after the last whole line of the one before, searches each,
 * and quits at the window that holds the NUL (so a match between that window's start and the NUL
 * is not reported either).
 */
function searchedBeforeBinary(bytes: Uint8Array, nul: number): number {
  let start = 0;
  for (;;) {
    const end = start + BINARY_SNIFF_BYTES;
    if (nul < end) return start;
    const lastLineEnd = bytes.lastIndexOf(0x0a, end - 1);
    // A line longer than a window: rg grows its buffer to hold it; it stops at that line's start.
    if (lastLineEnd < start) return start;
    start = lastLineEnd + 1;
  }
}

// Stateless between calls (no `stream`), so one serves every file.
const decoder = new TextDecoder();
