// The directory walker behind getFileTree, findFiles and the built-in search. Breadth-first, so when
// a limit cuts the walk short the caller still has the shallow levels, which say the most about a
// project. Every directory is listed through a checked descriptor (src/security/jail/checked-open.ts),
// and symlinks are listed, never followed, so a directory swapped for a link mid-walk cannot lead
// the walk outside. What is seen follows src/lib/ignore/visibility.ts (.gitignore included), and the
// .gitignore files are read through the same descriptors.
import type { DirEntry, DirHandle, Fs } from "../ports/fs.ts";
import { ToolError } from "../errors.ts";
import type { IgnoreLevel } from "../lib/ignore/ignore-levels.ts";
import { loadLevel } from "../lib/ignore/load-level.ts";
import { isVisible, type PathFilter } from "../lib/ignore/visibility.ts";
import { openCheckedDirectory, type JailedFs } from "../security/jail/checked-open.ts";
import type { Workspace } from "../security/jail/workspace-jail.ts";
import { isInside, relative } from "../lib/paths/posix-path.ts";
import { childPath, descendantPath, type WorkspacePath } from "../security/jail/workspace-path.ts";
import { createYielder } from "../lib/yield-now.ts";

type EntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  path: WorkspacePath;
  /** Path relative to the start directory, "/"-separated. */
  rel: string;
  name: string;
  kind: EntryKind;
  /** 1 for the start directory's children. */
  depth: number;
  /** Size in bytes, for files when `sizes` was asked for. */
  size?: number;
}

export interface WalkOptions {
  maxDepth: number;
  includeHidden: boolean;
  /** Leave out what .gitignore and .git/info/exclude ignore (default true). */
  gitignore?: boolean;
  /** The caller's include/exclude globs, relative to the start directory. */
  filter?: PathFilter;
  /** lstat each file for its size (one more call per file). */
  sizes?: boolean;
  signal: AbortSignal;
}

interface Pending {
  path: WorkspacePath;
  rel: string;
  level: IgnoreLevel | undefined;
}

interface Listed {
  entries: { entry: DirEntry; size: number | undefined }[];
  level: IgnoreLevel | undefined;
}

export async function* walk(jailed: JailedFs, start: WorkspacePath, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  const { fs, jail } = jailed;
  const yielder = createYielder();
  const gitignore = opts.gitignore ?? true;
  const folder = folderOf(jail, start);
  /** The start directory relative to its workspace folder, for .gitignore paths. */
  const base = relative(folder, start);
  const ancestors = gitignore ? await ancestorLevels(fs, jail, folder, base) : undefined;
  let level: Pending[] = [{ path: start, rel: "", level: ancestors }];
  const listOpts = { ...opts, gitignore, base };
  for (let depth = 1; depth <= opts.maxDepth && level.length > 0; depth++) {
    const next: Pending[] = [];
    // The directories of a level are listed a few ahead of the one being yielded: each listing is
    // several round trips to the OS, which then overlap; the order of what is yielded is unchanged.
    const listings: Promise<Listed>[] = [];
    let started = 0;
    try {
      for (const dir of level) {
        if (opts.signal.aborted)
          throw new ToolError("cancelled", "Cancelled while walking the workspace", {
            suggestion: "Call again with a smaller maxDepth or a subdirectory.",
          });
        while (started < level.length && listings.length <= LIST_AHEAD)
          listings.push(listDirectory(fs, jail, level[started++] as Pending, listOpts));
        const listed = await (listings.shift() as Promise<Listed>);
        for (const { entry, size } of listed.entries) {
          const kind = kindOf(entry);
          const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
          // A child of a checked directory that is not a symlink is inside too.
          const item: WalkEntry = { path: childPath(dir.path, entry.name), rel, name: entry.name, kind, depth };
          if (size !== undefined) item.size = size;
          yield item;
          await yielder.maybeYield();
          if (kind === "directory") next.push({ path: item.path, rel, level: listed.level });
        }
      }
    } finally {
      // Listings started ahead of a stop (a limit, a cancellation) close their own descriptors.
      await Promise.allSettled(listings);
    }
    level = next;
  }
}

/** Directories listed ahead of the one being yielded. */
const LIST_AHEAD = 16;

/** The workspace folder `path` lies in (the innermost, when folders nest). */
export function folderOf(jail: Pick<Workspace, "folders" | "root">, path: WorkspacePath): WorkspacePath {
  const holding = jail.folders.filter((f) => isInside(path, f));
  return holding.reduce((a, b) => (b.length > a.length ? b : a), jail.root);
}

/** The .gitignore levels of the directories above the start, from its workspace folder down. */
async function ancestorLevels(fs: Fs, jail: Workspace, folder: WorkspacePath, base: string): Promise<IgnoreLevel | undefined> {
  let level: IgnoreLevel | undefined;
  const parts = base === "" ? [] : base.split("/");
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    const path = descendantPath(folder, dir);
    const opened = await openCheckedDirectory({ fs, jail }, path, { label: path }).catch(() => undefined);
    if (opened === undefined) continue;
    try {
      level = await loadLevel(level, { dir, handle: opened.handle, entries: await opened.handle.list().catch(() => []) });
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }
  return level;
}

async function listDirectory(
  fs: Fs,
  jail: Workspace,
  dir: Pending,
  opts: WalkOptions & { gitignore: boolean; base: string },
): Promise<Listed> {
  let handle: DirHandle;
  try {
    handle = (await openCheckedDirectory({ fs, jail }, dir.path, { label: dir.path })).handle;
  } catch {
    // An unreadable directory (permissions, removed or swapped meanwhile) is skipped, not fatal.
    return { entries: [], level: dir.level };
  }
  try {
    const all = await handle.list().catch(() => []);
    const folderDir = joinRel(opts.base, dir.rel);
    const level = opts.gitignore ? await loadLevel(dir.level, { dir: folderDir, handle, entries: all }) : undefined;
    const visibility = { includeHidden: opts.includeHidden, gitignore: opts.gitignore, filter: opts.filter };
    const entries = all
      .filter((e) =>
        isVisible(
          { name: e.name, isDir: e.isDirectory, folderPath: joinRel(folderDir, e.name), searchPath: joinRel(dir.rel, e.name) },
          level,
          visibility,
        ),
      )
      .sort(compareEntries);
    const sizeOf = (entry: DirEntry) =>
      opts.sizes && entry.isFile
        ? handle.entryStat(entry.name).then(
            (s) => s.size,
            () => undefined,
          )
        : undefined;
    return { entries: await Promise.all(entries.map(async (entry) => ({ entry, size: await sizeOf(entry) }))), level };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function joinRel(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** Directories first, then by name (code-point order, so the result is stable everywhere). */
function compareEntries(a: DirEntry, b: DirEntry): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function kindOf(entry: DirEntry): EntryKind {
  if (entry.isSymbolicLink) return "symlink";
  if (entry.isDirectory) return "directory";
  return entry.isFile ? "file" : "other";
}
