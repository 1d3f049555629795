// A file's project root for one server, by the server's root policy (server-specs.ts):
// "nearest-marker": the nearest directory above it holding one of the server's root markers
// (pyproject.toml, go.mod...), never above the workspace folder the file is in, so a monorepo's
// Go modules each get their own server and nothing outside is a root. "workspace-folder": the
// workspace folder itself, for a server that finds each file's project on its own (one TypeScript
// server serves every tsconfig under it, as one tsserver does for a VS Code window).
import type { Fs } from "../ports/fs.ts";
import { dirname, isInside } from "../lib/paths/posix-path.ts";
import type { ServerSpec } from "./server-specs.ts";

export async function projectRoot(
  fs: Pick<Fs, "lstat">,
  file: string,
  opts: { folder: string; spec: Pick<ServerSpec, "rootMarkers" | "rootPolicy"> },
): Promise<string> {
  if (opts.spec.rootPolicy === "workspace-folder") return opts.folder;
  for (let dir = dirname(file); isInside(dir, opts.folder); dir = dirname(dir)) {
    for (const marker of opts.spec.rootMarkers) {
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
