// What clangd's project config may make it do. A `.clangd` file is the workspace's, so a model can
// write one, in any folder (clangd reads every one from a source file's folder up). Some of its
// settings reach outside the workspace:
//   - CompileFlags.CompilationDatabase names the folder of the compile_commands.json to use, and
//     the background index writes its shards beside that database (.cache/clangd/index): a folder
//     outside makes clangd write outside;
//   - Index.External points at an index file to read or a server to connect to;
//   - CompileFlags.Add can add flags that load code into the compiler (-fplugin, -Xclang -load) or
//     write files (-MF, -MJ, -ftime-trace, -save-temps, -fmodules-cache-path).
// A `.clangd` that sets any of these so that it could leave the workspace is not obeyed: clangd is
// started with --enable-config=false (no .clangd and no user config.yaml is read) and the log says
// which file and why. A workspace too large to look through is treated the same way, since an
// unseen `.clangd` could say anything. The compilation database folders clangd finds by itself
// (the root, build/) must be real folders for the index: one that is a symlink keeps the index in
// memory (--background-index=false), as a symlinked .cache does (launch-options.ts); so does one
// under a database folder a `.clangd` names. Those folders are reported (`databases`), so the
// watcher hears a database or an index folder that appears there while clangd runs.
import type { Fs } from "../ports/fs.ts";
import { dirname, isInside, normalize } from "../lib/paths/posix-path.ts";
import { launchArgsFor } from "./launch-options.ts";
import type { ServerSpec } from "./server-specs.ts";

export type ClangdGuardFs = Pick<Fs, "lstat" | "readFile" | "readdir" | "realpath">;

/** Entries looked at before the walk gives up (and config is turned off, unseen). */
const MAX_ENTRIES = 50_000;
/** A `.clangd` larger than this is not a config a project needs. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** Folders no project config lives in, and that can be huge. */
const SKIPPED = new Set([".git", "node_modules", ".cache", ".hg", ".svn"]);
/** Flags that load code into the compiler or make it write a file. */
const RISKY_FLAG =
  /(?:^|[\s,["'])(-fplugin\S*|-fpass-plugin\S*|-load|-Xclang|-MF|-MJ|-MD|-MMD|-ftime-trace\S*|-save-temps\S*|-fmodules-cache-path\S*|-fcrash-diagnostics-dir\S*|--serialize-diagnostics|-fprofile\S*)(?=$|[\s,\]"'=])/m;
const DATABASE = /\bCompilationDatabase\s*:\s*(?:"([^"]*)"|'([^']*)'|([^\s,}\]#]*))/g;
const EXTERNAL_FILE = /\bFile\s*:\s*(?:"([^"]*)"|'([^']*)'|([^\s,}\]#]*))/g;

export interface ClangdGuardResult {
  args: readonly string[];
  /** Why a setting was not obeyed, for the log; empty when nothing was changed. */
  warnings: string[];
  /** The database folders inside the workspace that the `.clangd` files name (absolute). */
  databases: string[];
}

/** Where clangd's background index is written, below a database folder. */
const INDEX_PATH = [".cache", ".cache/clangd", ".cache/clangd/index"];

/** A server's launch arguments (launch-options.ts), guarded when the server is clangd; each warning goes to `warn`. */
export async function guardedLaunchArgs(
  spec: ServerSpec,
  root: string,
  deps: { fs: ClangdGuardFs; warn(message: string): void; databases?(dirs: readonly string[]): void },
): Promise<readonly string[]> {
  const args = await launchArgsFor(spec, root, deps);
  if (spec.id !== "clangd") return args;
  const guarded = await guardClangdConfig(args, root, deps.fs);
  for (const warning of guarded.warnings) deps.warn(warning);
  deps.databases?.(guarded.databases);
  return guarded.args;
}

/** clangd's arguments with the project config and the on-disk index turned off where they could leave `root`. */
export async function guardClangdConfig(args: readonly string[], root: string, fs: ClangdGuardFs): Promise<ClangdGuardResult> {
  const warnings: string[] = [];
  let out = [...args];
  const realRoot = await fs.realpath(root).catch(() => root);
  const found = await findConfigs(root, fs);
  const databases: string[] = [];
  const refusals =
    found === "too many"
      ? [`the workspace has more than ${MAX_ENTRIES} entries, so its .clangd files could not all be checked`]
      : (await Promise.all(found.map((file) => configRefusal(file, { root, realRoot, databases }, fs)))).filter(
          (r): r is string => r !== undefined,
        );
  if (refusals.length > 0) {
    out = [...out.filter((a) => !a.startsWith("--enable-config")), "--enable-config=false"];
    warnings.push(`clangd reads no .clangd or user config here: ${refusals.join("; ")}`);
  }
  if (out.includes("--background-index")) {
    const leaving = await indexLeaves([`${root}/build`], { root, fs, below: [""] });
    const named = out.includes("--enable-config=false") ? undefined : await indexLeaves(databases, { root, fs, below: INDEX_PATH });
    for (const place of [leaving, named]) {
      if (place === undefined) continue;
      out = out.map((a) => (a === "--background-index" ? "--background-index=false" : a));
      warnings.push(
        `clangd keeps its index in memory: ${place} is a symlink or not a folder, and the index would be written where it points`,
      );
    }
  }
  return { args: out, warnings, databases };
}

/** The first of `dirs` (or of the index folders below them) that is a symlink or not a folder, root-relative; undefined when none is. */
async function indexLeaves(
  dirs: readonly string[],
  at: { root: string; fs: ClangdGuardFs; below: readonly string[] },
): Promise<string | undefined> {
  const { root, fs } = at;
  for (const dir of dirs)
    for (const part of at.below) {
      const path = part === "" ? dir : `${dir}/${part}`;
      const st = await fs.lstat(path).catch(() => undefined);
      // Absent is fine: clangd then makes a real folder. The build/ folder itself need only not be a symlink.
      if (st !== undefined && (st.isSymbolicLink || (part !== "" && !st.isDirectory))) return `${path.slice(root.length + 1) || "."}/`;
    }
  return undefined;
}

/** Every `.clangd` file under root (symlinked folders not followed), or "too many" past the bound. */
async function findConfigs(root: string, fs: ClangdGuardFs): Promise<string[] | "too many"> {
  const found: string[] = [];
  const queue = [root];
  let seen = 0;
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const entries = await fs.readdir(dir).catch(() => []);
    seen += entries.length;
    if (seen > MAX_ENTRIES) return "too many";
    for (const e of entries) {
      if (e.name === ".clangd" && !e.isDirectory) found.push(`${dir}/${e.name}`);
      else if (e.isDirectory && !e.isSymbolicLink && !SKIPPED.has(e.name)) queue.push(`${dir}/${e.name}`);
    }
  }
  return found;
}

/** Why the config file at `file` may not be obeyed, or undefined. */
async function configRefusal(file: string, where: Roots & { databases: string[] }, fs: ClangdGuardFs): Promise<string | undefined> {
  const name = file.slice(where.root.length + 1);
  const bytes = await fs.readFile(file).catch(() => undefined);
  if (bytes === undefined) return undefined;
  if (bytes.length > MAX_CONFIG_BYTES) return `${name} is larger than ${MAX_CONFIG_BYTES} bytes`;
  const text = new TextDecoder().decode(bytes);
  const here = dirname(file);
  for (const m of text.matchAll(DATABASE)) {
    const value = m[1] ?? m[2] ?? m[3] ?? "";
    if (value === "Ancestors" || value === "None") continue;
    if (!(await staysInside(value, here, where, fs)))
      return `${name} sets CompilationDatabase to ${JSON.stringify(value)}, outside the workspace`;
    where.databases.push(normalize(value.startsWith("/") ? value : `${here}/${value}`));
  }
  if (/\bExternal\s*:/.test(text)) {
    if (/\bServer\s*:/.test(text)) return `${name} names an external index server`;
    for (const m of text.matchAll(EXTERNAL_FILE)) {
      const value = m[1] ?? m[2] ?? m[3] ?? "";
      if (!(await staysInside(value, here, where, fs))) return `${name} names an external index file outside the workspace`;
    }
  }
  const flag = RISKY_FLAG.exec(text)?.[1];
  if (flag !== undefined) return `${name} adds the compiler flag ${flag}, which loads code or writes files`;
  return undefined;
}

interface Roots {
  /** The root as clangd was given it. */
  root: string;
  /** Its real path, what a resolved place must lie in. */
  realRoot: string;
}

/** Whether `value` (relative to `here`, or absolute) names a place inside the root, through symlinks too. */
async function staysInside(value: string, here: string, where: Roots, fs: ClangdGuardFs): Promise<boolean> {
  if (value === "" || value.includes("\0")) return false;
  const path = normalize(value.startsWith("/") ? value : `${here}/${value}`);
  if (!isInside(path, where.root) && !isInside(path, where.realRoot)) return false;
  // The deepest part that exists decides where the rest would be made.
  for (let p = path; p !== "/"; p = dirname(p)) {
    const real = await fs.realpath(p).catch(() => undefined);
    if (real !== undefined) return isInside(real, where.realRoot);
  }
  return false;
}
