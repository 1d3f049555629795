// Where git takes code to run from, which no tool writes unless the user started the bridge with
// --allow-git-dir-writes. A write there is a program the next git run starts, the bridge's or the
// user's own in a terminal: a filter command in .git/config with a .gitattributes naming it, a hook
// (.git/hooks/pre-commit.sample overwritten, then renamed), an fsmonitor. So the jail refuses:
//   - any path with a `.git` component (the git directory, a worktree's or submodule's `.git` file
//     pointing elsewhere, .git/modules, .git/worktrees, .git/info/attributes);
//   - anything inside a directory git would take for a git directory (HEAD with objects and refs,
//     or with commondir: a bare repository, a gitdir moved elsewhere), and a write that would
//     complete one;
//   - the hooks directory the workspace repository's core.hooksPath names (for husky's .husky/_,
//     .husky/ whose scripts its hooks run), and the config files its config includes, when they
//     are inside the workspace (a shared .gitconfig): git runs what they say.
// The repository's config is read here with the jail's own file access (git-config-file.ts), not
// by running git: the jail runs nothing. Includes are followed five deep.
import type { Fs } from "../../ports/fs.ts";
import { basename, dirname, isAbsolute, isInside, normalize, relative } from "../../lib/paths/posix-path.ts";
import { parseGitConfig } from "./git-config-file.ts";

/** Largest config file read: a bigger one is not a config a repository needs. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_INCLUDE_DEPTH = 5;

/** Why git may take code from `path` (a real absolute path inside `folder`), or undefined. */
export async function gitPlace(fs: Fs, path: string, where: { folder: string; folders: readonly string[] }): Promise<string | undefined> {
  const inFolder = relative(where.folder, path);
  if (inFolder.split("/").some(isDotGit)) return "is in a git directory (.git)";
  for (let dir = dirname(path); isInside(dir, where.folder); dir = dirname(dir)) {
    if (await isGitDirectory(fs, dir)) return `is in ${dir}, a git directory (it has HEAD and objects/refs or commondir)`;
    if (dir === where.folder || dir === "/") break;
  }
  if (await completesGitDirectory(fs, path)) return `would make ${dirname(path)} a git directory`;
  for (const place of await configuredPlaces(fs, where.folder)) {
    // Named through a symlink (.husky -> tools/hooks), it is protected where it really is.
    const real = await fs.realpath(place.path).catch(() => place.path);
    if (where.folders.some((f) => isInside(real, f)) && isInside(path, real)) return `is ${place.why}`;
  }
  return undefined;
}

/** `.git`, as a case-insensitive filesystem (macOS, Windows) or NTFS's trailing dots and spaces would also read it. */
function isDotGit(name: string): boolean {
  return name.replace(/[. ]+$/, "").toLowerCase() === ".git";
}

async function exists(fs: Fs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** As git's is_git_directory(): HEAD, and objects and refs (or a commondir that has them). */
async function isGitDirectory(fs: Fs, dir: string): Promise<boolean> {
  if (!(await exists(fs, `${dir}/HEAD`))) return false;
  if (await exists(fs, `${dir}/commondir`)) return true;
  return (await exists(fs, `${dir}/objects`)) && (await exists(fs, `${dir}/refs`));
}

/** Whether writing `path` (a HEAD, objects, refs or commondir) gives its directory the last thing a git directory needs. */
async function completesGitDirectory(fs: Fs, path: string): Promise<boolean> {
  const dir = dirname(path);
  const has = (name: string) => exists(fs, `${dir}/${name}`);
  switch (basename(path)) {
    case "HEAD":
      return (await has("commondir")) || ((await has("objects")) && (await has("refs")));
    case "commondir":
      return has("HEAD");
    case "objects":
      return (await has("HEAD")) && (await has("refs"));
    case "refs":
      return (await has("HEAD")) && (await has("objects"));
    default:
      return false;
  }
}

interface Place {
  path: string;
  why: string;
}

/** The hooks directory and included config files of the repository `folder` is in. */
async function configuredPlaces(fs: Fs, folder: string): Promise<Place[]> {
  const repo = await findRepository(fs, folder);
  if (repo === undefined) return [];
  const places: Place[] = [];
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<void> => {
    if (seen.has(file) || depth > MAX_INCLUDE_DEPTH) return;
    seen.add(file);
    const text = await readSmall(fs, file);
    if (text === undefined) return;
    for (const line of parseGitConfig(text)) {
      if (line.section === "core" && line.subsection === "" && line.name === "hookspath" && line.value !== "") {
        const dir = resolveFrom(repo.top, line.value);
        if (dir !== undefined) places.push({ path: dir, why: `in ${dir}, the hooks directory the repository's core.hooksPath names` });
        // husky (9) names .husky/_, whose generated hooks run the scripts one level up.
        if (dir !== undefined && basename(dir) === "_")
          places.push({ path: dirname(dir), why: `in ${dirname(dir)}, whose scripts the hooks in ${dir} run` });
      }
      if ((line.section === "include" || line.section === "includeif") && line.name === "path" && line.value !== "") {
        const included = resolveFrom(dirname(file), line.value);
        if (included === undefined) continue;
        places.push({ path: included, why: `${included}, a config file the repository's config includes` });
        await visit(included, depth + 1);
      }
    }
  };
  for (const file of repo.configs) await visit(file, 0);
  return places;
}

/** A path as git resolves a config value: relative to `base`; `~` (the user's home) is never in a workspace. */
function resolveFrom(base: string, value: string): string | undefined {
  if (value.startsWith("~")) return undefined;
  return normalize(isAbsolute(value) ? value : `${base}/${value}`);
}

/** The repository containing `folder`: its working tree's top and its config files. */
async function findRepository(fs: Fs, folder: string): Promise<{ top: string; configs: string[] } | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const dotGit = `${dir}/.git`;
    const st = await fs.lstat(dotGit).catch(() => undefined);
    if (st?.isDirectory) return { top: dir, configs: await configFiles(fs, dotGit) };
    if (st?.isFile) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readSmall(fs, dotGit)) ?? "");
      if (pointer?.[1] !== undefined) return { top: dir, configs: await configFiles(fs, resolveFrom(dir, pointer[1]) ?? dotGit) };
    }
    if (dir === "/" || dirname(dir) === dir) return undefined;
  }
}

/** config in the common directory (a linked worktree's gitdir names it in `commondir`) and config.worktree. */
async function configFiles(fs: Fs, gitDir: string): Promise<string[]> {
  const common = (await readSmall(fs, `${gitDir}/commondir`))?.trim();
  const commonDir = common === undefined || common === "" ? gitDir : (resolveFrom(gitDir, common) ?? gitDir);
  return [`${commonDir}/config`, `${gitDir}/config.worktree`];
}

async function readSmall(fs: Fs, path: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(path);
    if (!st.isFile || st.size > MAX_CONFIG_BYTES) return undefined;
    return await fs.readTextFile(path);
  } catch {
    return undefined;
  }
}
