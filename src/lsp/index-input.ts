// Whether a server's readiness task can come at all for a file. clangd indexes the project in the
// background only from a compile_commands.json, which it looks for in the file's folder, each one
// above it, and their build/ subfolders: without one (or with only compile_flags.txt, which gives
// flags but no list of files, or with the index turned off) no index is coming, so waiting for it
// only delays an answer that will be about the open files anyway. A `.clangd` on the way may name
// another database folder (CompileFlags.CompilationDatabase): then the index may come, and is waited for.
import type { Fs } from "../ports/fs.ts";
import { dirname, isInside } from "../lib/paths/posix-path.ts";

export type IndexInputFs = Pick<Fs, "stat" | "readFile">;

const HOW_TO_MAKE =
  "generate compile_commands.json (cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make) in the project's root or its build/ folder and call again";

/**
 * Why clangd's background index will not run for `file` (a sentence naming what is missing and
 * how to make it), or undefined when a compilation database is there or may be named by a `.clangd`.
 */
export async function clangdIndexMissing(
  fs: IndexInputFs,
  file: string,
  opts: { folder: string; args: readonly string[]; relative: string },
): Promise<string | undefined> {
  if (opts.args.includes("--background-index=false"))
    return `clangd runs without its background index here (its index folder could leave the workspace), so it answered from the open files only`;
  let flagsOnly = false;
  for (let dir = dirname(file); isInside(dir, opts.folder); dir = dirname(dir)) {
    const base = dir === "/" ? "" : dir;
    if (await isFile(fs, `${base}/compile_commands.json`)) return undefined;
    if (await isFile(fs, `${base}/build/compile_commands.json`)) return undefined;
    if (!opts.args.includes("--enable-config=false") && (await namesDatabase(fs, `${base}/.clangd`))) return undefined;
    flagsOnly ||= await isFile(fs, `${base}/compile_flags.txt`);
    if (dir === opts.folder || dir === "/") break;
  }
  return flagsOnly
    ? `clangd has only compile_flags.txt for ${opts.relative}, which gives flags but lists no files, so it indexes nothing beyond the open files; ${HOW_TO_MAKE}`
    : `clangd found no compile_commands.json for ${opts.relative} (in its folder, one above it, or their build/), so no background index is coming and it answered from the open files only; ${HOW_TO_MAKE}`;
}

/** A `.clangd` that names a database folder (clangd then indexes from there). */
async function namesDatabase(fs: IndexInputFs, path: string): Promise<boolean> {
  if (!(await isFile(fs, path))) return false;
  const bytes = await fs.readFile(path).catch(() => new Uint8Array());
  return /\bCompilationDatabase\s*:/.test(new TextDecoder().decode(bytes.subarray(0, 256 * 1024)));
}

async function isFile(fs: IndexInputFs, path: string): Promise<boolean> {
  return fs.stat(path).then(
    (st) => st.isFile,
    () => false,
  );
}
