// Where a name is written in the workspace as a whole word: the cheap cross-check every
// whole-project answer (references, callers, implementations, rename) is held against, so a list a
// language server built from part of the project is never taken for the whole one. rg when it is
// there, the built-in walk otherwise; both see what the search tools see (.gitignore honoured,
// dependencies and build output left out) and skip files too large to be anyone's source.
import type { ToolContext } from "../../capabilities/context.ts";
import { errorMessage } from "../../errors.ts";
import { listFiles } from "../search/file-list.ts";
import { alwaysSkippedGlobs, visibilityFlags } from "../search/rg-flags.ts";
import { runRg } from "../search/run-rg.ts";
import { wholeWords } from "../../lsp/positions.ts";

/** Source files larger than this are generated bundles: not searched (the language servers skip them too). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** The built-in walk reads at most this many files; a bigger tree without rg is said to be cut. */
const MAX_BUILT_IN_FILES = 20_000;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
/** A search listing more files than this is not kept (about 100 bytes each). */
const MAX_KEPT_FILES = 10_000;

export interface Mentions {
  /** Root-relative path -> how many of its lines mention the name. */
  files: Map<string, number>;
  /** Some of the workspace was not searched (the built-in walk's bound, rg's output cap). */
  cut: boolean;
  /** Why the search could not run at all (the cross-check is then unknown, never "nothing found"). */
  failed?: string;
}

/**
 * The files that mention the name but are not in an answer, with their counts: those of the
 * answering server's languages (`first`) first, then by path.
 */
export function mentionedOutside(
  mentions: Mentions,
  opts: { inAnswer: ReadonlySet<string>; first: (file: string) => boolean },
): { file: string; lines: number }[] {
  const { inAnswer, first } = opts;
  return [...mentions.files]
    .filter(([file]) => !inAnswer.has(file))
    .map(([file, lines]) => ({ file, lines }))
    .sort((a, b) => Number(first(b.file)) - Number(first(a.file)) || (a.file < b.file ? -1 : 1));
}

/**
 * Kept while the workspace's files stay as they are (ctx.lsp.whileUnchanged): the search is a
 * process start per call, many times the language server's own answer, and gives the same files
 * until one changes. A failed or cancelled search is not kept, nor one of a name in so many files
 * that keeping 64 of them would hold tens of megabytes. Callers must not change the result.
 */
export async function wholeWordMentions(ctx: ToolContext, name: string): Promise<Mentions> {
  return ctx.lsp.whileUnchanged(`mentions\0${name}`, () => searched(ctx, name), {
    keep: (m) => m.failed === undefined && !ctx.signal.aborted && m.files.size <= MAX_KEPT_FILES,
  });
}

async function searched(ctx: ToolContext, name: string): Promise<Mentions> {
  try {
    return (await ctx.probes.get("rg")).available ? await withRg(ctx, name) : await builtIn(ctx, name);
  } catch (err) {
    return { files: new Map(), cut: true, failed: errorMessage(err) };
  }
}

async function withRg(ctx: ToolContext, name: string): Promise<Mentions> {
  const root = await ctx.fs.resolve(".");
  const result = await runRg(ctx, root, {
    args: [
      "--count",
      "--null",
      "--word-regexp",
      "--fixed-strings",
      "--max-filesize",
      String(MAX_FILE_BYTES),
      ...visibilityFlags({ includeHidden: false, gitignore: true }),
      ...alwaysSkippedGlobs(),
      "-e",
      name,
      "--",
      root,
    ],
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  const files = new Map<string, number>();
  const prefix = `${root === "/" ? "" : root}/`;
  for (const line of result.stdout.split("\n")) {
    const nul = line.indexOf("\0");
    if (nul < 0) continue;
    const path = line.slice(0, nul);
    if (!path.startsWith(prefix)) continue;
    files.set(path.slice(prefix.length), Number(line.slice(nul + 1)) || 1);
  }
  return { files, cut: result.stdoutTruncated };
}

async function builtIn(ctx: ToolContext, name: string): Promise<Mentions> {
  const listed = await listFiles(ctx, ".", { includeHidden: false, gitignore: true, builtIn: true });
  const files = new Map<string, number>();
  const cut = listed.files.length > MAX_BUILT_IN_FILES;
  for (const file of listed.files.slice(0, MAX_BUILT_IN_FILES)) {
    if (ctx.signal.aborted) return { files, cut: true };
    const text = await ctx.fs.readText(file, { maxBytes: MAX_FILE_BYTES }).catch(() => undefined);
    if (text === undefined || text.includes("\0") || !text.includes(name)) continue;
    let count = 0;
    for (const line of text.split("\n")) if (wholeWords(line, name).length > 0) count += 1;
    if (count > 0) files.set(file, count);
  }
  return { files, cut };
}
