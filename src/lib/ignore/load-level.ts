// Reads a directory's ignore files through its open handle (src/ports/fs.ts DirHandle), so what is
// read is in the directory that was checked, never wherever a swapped path leads. A .gitignore that
// is a symlink, a FIFO or too big is not read (git itself refuses symlinked .gitignore files).
import type { DirEntry, DirHandle } from "../../ports/fs.ts";
import { parseGitignore, type IgnoreRule } from "./gitignore-rules.ts";
import { childLevel, type IgnoreLevel } from "./ignore-levels.ts";

/** A real .gitignore is a few KB; anything this big is not one. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

export async function loadLevel(
  parent: IgnoreLevel | undefined,
  listed: { dir: string; handle: DirHandle; entries: readonly DirEntry[] },
): Promise<IgnoreLevel | undefined> {
  const { dir, handle, entries } = listed;
  const has = (name: string) => entries.find((e) => e.name === name);
  const ignoreFile = has(".gitignore");
  const git = has(".git");
  const rules = ignoreFile?.isFile ? parseGitignore(await readSmall(handle, ".gitignore")) : [];
  const exclude = git?.isDirectory ? await readExclude(handle) : [];
  return childLevel(parent, dir, { rules, exclude, hasGit: git !== undefined });
}

async function readExclude(handle: DirHandle): Promise<IgnoreRule[]> {
  let gitDir: DirHandle | undefined;
  let info: DirHandle | undefined;
  try {
    gitDir = await handle.openDirectory(".git");
    info = await gitDir.openDirectory("info");
    return parseGitignore(await readSmall(info, "exclude"));
  } catch {
    return [];
  } finally {
    await info?.close().catch(() => undefined);
    await gitDir?.close().catch(() => undefined);
  }
}

/** The file's text, or "" when it cannot be read as a small regular file. */
async function readSmall(dir: DirHandle, name: string): Promise<string> {
  try {
    const file = await dir.openFile(name);
    try {
      const st = await file.stat();
      if (!st.isFile || st.size > MAX_IGNORE_FILE_BYTES) return "";
      return new TextDecoder().decode(await file.read(0, MAX_IGNORE_FILE_BYTES));
    } finally {
      await file.close();
    }
  } catch {
    return "";
  }
}
