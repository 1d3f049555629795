// A file's project root for one server: the nearest directory above it holding one of the server's
// root markers (tsconfig.json, pyproject.toml, go.mod...), never above the workspace folder the
// file is in, so a monorepo's packages each get their own server and nothing outside is a root.
import type { Fs } from "../ports/fs.ts";
import { dirname, isInside } from "../lib/paths/posix-path.ts";

export async function projectRoot(
  fs: Pick<Fs, "lstat">,
  file: string,
  opts: { folder: string; markers: readonly string[] },
): Promise<string> {
  for (let dir = dirname(file); isInside(dir, opts.folder); dir = dirname(dir)) {
    for (const marker of opts.markers) {
      if (await exists(fs, `${dir === "/" ? "" : dir}/${marker}`)) return dir;
    }
    if (dir === opts.folder || dir === "/") break;
  }
  return opts.folder;
}

async function exists(fs: Pick<Fs, "lstat">, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The innermost workspace folder that holds `path`, undefined when none does. */
export function folderOf(folders: readonly string[], path: string): string | undefined {
  return [...folders].sort((a, b) => b.length - a.length).find((f) => isInside(path, f));
}
