// How fixAllLintErrors' fixes reach the files without a linter writing through a symlink to outside
// the workspace: `eslint --fix .` follows a symlinked file and rewrote its target outside. So:
// - eslint computes its fixes without writing (--fix-dry-run); the bridge writes each fixed file
//   through the jail, which refuses a symlink that leads outside and a hard link, and only over the
//   version it read just before (a file that fails either is named in `skipped`, unchanged);
// - biome fixes text piped through it (--stdin-file-path): the bridge reads each file through the
//   jail, pipes it in, and writes what comes back the same way as eslint's;
// - ruff writes its fixes itself, so it never gets a directory to walk: it is given the
//   jail-checked list of regular files (rg --files or the jail's walk, which list no symlinks), a
//   few hundred at a time. A symlink swapped in between the listing and ruff's write is a window
//   this cannot close; only a concurrent writer (a git checkout, a program) can open it.
import type { ToolContext } from "../../capabilities/context.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import { ToolError } from "../../errors.ts";
import { identityOf } from "../../workspace/file-version.ts";
import { listFiles } from "../search/file-list.ts";
import type { Checker } from "./checkers.ts";
import { isRecord } from "./project-facts.ts";
import { parseArray } from "./parsers/eslint-json.ts";
import { relativeTo } from "./parsers/paths.ts";

/** Bytes of file arguments per run of an in-place fixer: far below any OS's argument limit. */
const MAX_ARGUMENT_BYTES = 64 * 1024;
/** A fixed file larger than this is not written (a linter's output is parsed whole). */
const MAX_FIXED_BYTES = 8 * 1024 * 1024;
/** Files a piped fixer is run on per call: one process each. */
const MAX_PIPED_FILES = 500;
const PIPED_TIMEOUT_MS = 60_000;

interface Skip {
  source: string;
  reason: string;
}

/**
 * The argument lists an in-place fixer runs with: the file, or the workspace's listed regular files
 * of its extensions in batches; none when the workspace has no such file.
 */
export async function fixTargets(ctx: ToolContext, opts: { checker: Checker; file: string | undefined }): Promise<string[][]> {
  const { checker, file } = opts;
  if (file !== undefined) return [[pathArgument(file)]];
  const listed = await listFiles(ctx, ".", { includeHidden: false, gitignore: true });
  const files = listed.files.filter((f) => checker.extensions.some((ext) => f.toLowerCase().endsWith(ext)));
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const arg = pathArgument(f);
    if (batch.length > 0 && bytes + arg.length > MAX_ARGUMENT_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(arg);
    bytes += arg.length + 1;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Writes the fixed text eslint --fix-dry-run reported (`output` of each file) through the jail, each
 * over the version read just before it; returns what was not written and why.
 */
export async function writeFixedOutputs(ctx: ToolContext, stdout: string, opts: { source: string }): Promise<Skip[]> {
  const { source } = opts;
  const skipped: Skip[] = [];
  for (const result of await parseArray(stdout)) {
    if (!isRecord(result) || typeof result.output !== "string" || typeof result.filePath !== "string") continue;
    const rel = relativeTo(ctx.fs.root, result.filePath);
    try {
      const data = new TextEncoder().encode(result.output);
      if (data.byteLength > MAX_FIXED_BYTES)
        throw new ToolError("file_too_large", `its fixed text is over ${MAX_FIXED_BYTES} bytes`, {
          suggestion: "Run the linter's fix on that file yourself.",
        });
      const read = await ctx.fs.readBytes(rel, { maxBytes: MAX_FIXED_BYTES, forWrite: true });
      await ctx.fs.commit([{ label: rel, path: read.path, data, expect: { identity: identityOf(read.stat), original: read.bytes } }]);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      skipped.push({ source, reason: `${rel}: its fixes were not written (${err.message})` });
    }
  }
  return skipped;
}

/**
 * Fixes each file by piping its text through the checker (`fixArgs([file])`) and writing what comes
 * back through the jail, over the version that was piped; returns what was not written and why.
 */
export async function fixPiped(ctx: ToolContext, opts: { checker: Checker; files: readonly string[] }): Promise<Skip[]> {
  const { checker, files } = opts;
  const source = checker.name;
  const skipped: Skip[] = [];
  for (const rel of files.slice(0, MAX_PIPED_FILES)) {
    try {
      const read = await ctx.fs.readBytes(rel, { maxBytes: MAX_FIXED_BYTES, forWrite: true });
      const text = utf8(read.bytes);
      if (text === undefined) {
        skipped.push({ source, reason: `${rel}: not fixed (not UTF-8 text)` });
        continue;
      }
      const result = await ctx.exec.runToolchain(checker.program, {
        args: checker.fixArgs?.([rel]) ?? [],
        stdin: text,
        timeoutMs: PIPED_TIMEOUT_MS,
        maxOutputBytes: MAX_FIXED_BYTES,
        env: { NO_COLOR: "1", FORCE_COLOR: "0" },
      });
      // No text back for text sent in: the linter did not handle the file (an unknown language, an
      // ignored path); never a reason to empty it.
      if (result.exitCode !== 0 || result.stdoutTruncated || (result.stdout === "" && text !== "")) {
        const why = result.stderr.trim().split("\n")[0] ?? "";
        skipped.push({ source, reason: `${rel}: not fixed (${checker.program} gave no fixed text back${why === "" ? "" : `: ${why}`})` });
        continue;
      }
      if (result.stdout === text) continue;
      const data = new TextEncoder().encode(result.stdout);
      await ctx.fs.commit([{ label: rel, path: read.path, data, expect: { identity: identityOf(read.stat), original: read.bytes } }]);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      skipped.push({ source, reason: `${rel}: its fixes were not written (${err.message})` });
    }
  }
  if (files.length > MAX_PIPED_FILES)
    skipped.push({
      source,
      reason: `${files.length - MAX_PIPED_FILES} more files with problems were not fixed (at most ${MAX_PIPED_FILES} a call): call again`,
    });
  return skipped;
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
