// The directory walker behind getFileTree and findFiles. Breadth-first, so when a limit cuts the
// walk short the caller still has the shallow levels, which say the most about a project. Every
// directory is listed through a checked descriptor (src/security/checked-open.ts), and symlinks are
// listed, never followed, so a directory swapped for a link mid-walk cannot lead the walk outside.
import type { DirEntry, DirHandle, Fs } from "../runtime.ts";
import { ToolError } from "../errors.ts";
import { openCheckedDirectory } from "../security/checked-open.ts";
import type { Workspace } from "../security/paths.ts";
import { markChecked, type WorkspacePath } from "../security/workspace-path.ts";
import { createYielder } from "./yield-now.ts";

/** Directories of generated or vendored files that drown the signal in a listing. */
export const IGNORED_NAMES: ReadonlySet<string> = new Set([".git", "node_modules", "dist", "build", "out", "coverage", ".next", "target", "__pycache__", ".venv"]);

export type EntryKind = "file" | "directory" | "symlink" | "other";

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
  /** lstat each file for its size (one more call per file). */
  sizes?: boolean;
  signal: AbortSignal;
}

interface Pending {
  path: WorkspacePath;
  rel: string;
}

export async function* walk(fs: Fs, jail: Workspace, start: WorkspacePath, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  const yielder = createYielder();
  let level: Pending[] = [{ path: start, rel: "" }];
  for (let depth = 1; depth <= opts.maxDepth && level.length > 0; depth++) {
    const next: Pending[] = [];
    for (const dir of level) {
      if (opts.signal.aborted) throw new ToolError("cancelled", "Cancelled while walking the workspace", { suggestion: "Call again with a smaller maxDepth or a subdirectory." });
      const listed = await listDirectory(fs, jail, dir.path, opts);
      for (const { entry, size } of listed) {
        const kind = kindOf(entry);
        const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
        // A child of a checked directory that is not a symlink is inside too.
        const item: WalkEntry = { path: markChecked(`${dir.path === "/" ? "" : dir.path}/${entry.name}`), rel, name: entry.name, kind, depth };
        if (size !== undefined) item.size = size;
        yield item;
        await yielder.maybeYield();
        if (kind === "directory") next.push({ path: item.path, rel });
      }
    }
    level = next;
  }
}

async function listDirectory(fs: Fs, jail: Workspace, path: WorkspacePath, opts: WalkOptions): Promise<{ entry: DirEntry; size: number | undefined }[]> {
  let handle: DirHandle;
  try {
    handle = (await openCheckedDirectory(fs, jail, path, path)).handle;
  } catch {
    // An unreadable directory (permissions, removed or swapped meanwhile) is skipped, not fatal.
    return [];
  }
  try {
    const entries = (await handle.list().catch(() => [])).filter((e) => !IGNORED_NAMES.has(e.name) && (opts.includeHidden || !e.name.startsWith("."))).sort(compareEntries);
    const sizeOf = (entry: DirEntry) => (opts.sizes && entry.isFile ? handle.entryStat(entry.name).then((s) => s.size, () => undefined) : undefined);
    return await Promise.all(entries.map(async (entry) => ({ entry, size: await sizeOf(entry) })));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Directories first, then by name (code-point order, so the result is stable everywhere). */
export function compareEntries(a: DirEntry, b: DirEntry): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function kindOf(entry: DirEntry): EntryKind {
  if (entry.isSymbolicLink) return "symlink";
  if (entry.isDirectory) return "directory";
  return entry.isFile ? "file" : "other";
}
