// The files of a workspace directory as the search tools see them: `rg --files` when rg is on PATH
// (fast on big trees), the built-in walk otherwise, with the same rules either way
// (src/lib/ignore/visibility.ts, src/services/search/rg-flags.ts), so a tool answers the same with and
// without rg. Paths come back relative to the directory, "/"-separated, sorted by code unit.
import { ToolError } from "../../errors.ts";
import { passesFilter, type PathFilter } from "../../lib/ignore/visibility.ts";
import { isInside } from "../../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { alwaysSkippedGlobs, visibilityFlags } from "./rg-flags.ts";
import { runRg } from "./run-rg.ts";

/** Symlinks are not followed, so there are no cycles; this only bounds pathological nesting. */
const MAX_WALK_DEPTH = 64;
/** rg's file list of a 50k-file tree is ~3 MB; this leaves room for far bigger ones. */
const MAX_LIST_BYTES = 64 * 1024 * 1024;
const PROGRESS_EVERY = 1000;

interface FileListOptions {
  includeHidden: boolean;
  gitignore: boolean;
  /** Use the built-in walk even when rg is there (tests compare the two). */
  builtIn?: boolean;
  /** The caller's include/exclude globs, relative to the directory. */
  filter?: PathFilter | undefined;
}

interface FileList {
  dir: WorkspacePath;
  files: string[];
  via: "rg" | "built-in";
}

export async function listFiles(ctx: ToolContext, dir: string, opts: FileListOptions): Promise<FileList> {
  const resolved = await ctx.fs.resolve(dir);
  if (!(await ctx.fs.stat(dir)).isDirectory) {
    throw new ToolError("not_a_directory", `${dir} is not a directory`, {
      suggestion: "Pass a directory, or read the file with getBufferContent or readFile.",
    });
  }
  const useRg = !opts.builtIn && (await ctx.probes.get("rg")).available;
  const files = useRg ? await listWithRg(ctx, resolved, opts) : await listBuiltIn(ctx, dir, opts);
  const { filter } = opts;
  // The walk applies the globs as it goes; rg's list is filtered here.
  const kept = useRg && filter !== undefined ? files.filter((f) => passesPathFilter(filter, f)) : files;
  return { dir: resolved, files: kept.sort(), via: useRg ? "rg" : "built-in" };
}

async function listWithRg(ctx: ToolContext, dir: WorkspacePath, opts: FileListOptions): Promise<string[]> {
  const rel = ctx.fs.relative(dir);
  const result = await runRg(ctx, dir, {
    args: ["--files", "--null", ...visibilityFlags(opts), ...alwaysSkippedGlobs(), "--", dir],
    maxOutputBytes: MAX_LIST_BYTES,
  });
  if (result.stdoutTruncated) {
    throw new ToolError("result_too_large", `The file list of ${rel || "."} is larger than ${MAX_LIST_BYTES} bytes`, {
      suggestion: "Search a subdirectory instead of the whole workspace.",
    });
  }
  const prefix = `${dir === "/" ? "" : dir}/`;
  return result.stdout
    .split("\0")
    .filter((path) => path !== "" && isInside(path, dir))
    .map((path) => path.slice(prefix.length));
}

async function listBuiltIn(ctx: ToolContext, dir: string, opts: FileListOptions): Promise<string[]> {
  const files: string[] = [];
  let seen = 0;
  for await (const entry of ctx.fs.walk(dir, {
    maxDepth: MAX_WALK_DEPTH,
    includeHidden: opts.includeHidden,
    gitignore: opts.gitignore,
    filter: opts.filter,
    signal: ctx.signal,
  })) {
    if (++seen % PROGRESS_EVERY === 0) ctx.progress(seen, { message: `${seen} entries listed` });
    if (entry.kind === "file") files.push(entry.rel);
  }
  return files;
}

/** Whether a path (relative to the listed directory) passes the globs, its directories included. */
function passesPathFilter(filter: PathFilter, path: string): boolean {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) if (!passesFilter(filter, parts.slice(0, i).join("/"), { isDir: true })) return false;
  return passesFilter(filter, path, { isDir: false });
}

/**
 * The names of `paths` (root-relative) that are files inside the workspace now, through the jail.
 * rg lists by path, so a directory swapped for a symlink while it runs can list names from outside;
 * a tool that shows a short list checks just those names. Each is opened through the jail's checked
 * open (the descriptor's own real path must be inside), not stat'ed by name: a stat follows a
 * directory swapped for a symlink between the jail's check and the stat, and so passed a name that
 * exists only outside (seen at load average 25 in the write-race test).
 */
export async function stillInside(ctx: ToolContext, paths: readonly string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const path of paths) {
    const file = await ctx.fs.openFile(path).catch(() => undefined);
    if (file === undefined) continue;
    await file.close().catch(() => undefined);
    kept.push(path);
  }
  return kept;
}
