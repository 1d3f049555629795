// The directory walker shared by getFileTree and findFiles. Breadth-first, so when a limit cuts
// the walk short the caller still has the shallow levels, which say the most about a project.
// Symlinks are listed, never followed: the start directory came through the jail, and every
// entry below a non-symlink directory is inside it, so no entry needs its own resolve().
import type { DirEntry, Fs } from "../../runtime.ts";
import { ToolError } from "../../errors.ts";
import { join } from "../../security/posix-path.ts";

/** Directories of generated or vendored files that drown the signal in a listing. */
export const IGNORED_NAMES: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  "dist",
  "build",
  "out",
  "coverage",
  ".next",
  "target",
  "__pycache__",
  ".venv",
]);

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  /** Real absolute path. */
  abs: string;
  /** Path relative to the start directory, "/"-separated. */
  rel: string;
  name: string;
  kind: EntryKind;
  /** 1 for the start directory's children. */
  depth: number;
}

export interface WalkOptions {
  maxDepth: number;
  includeHidden: boolean;
  signal: AbortSignal;
}

export async function* walk(fs: Fs, start: string, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  let level: { abs: string; rel: string }[] = [{ abs: start, rel: "" }];
  for (let depth = 1; depth <= opts.maxDepth && level.length > 0; depth++) {
    const next: { abs: string; rel: string }[] = [];
    for (const dir of level) {
      for (const entry of await listSorted(fs, dir.abs, opts)) {
        const kind = kindOf(entry);
        const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
        const item: WalkEntry = { abs: join(dir.abs, entry.name), rel, name: entry.name, kind, depth };
        yield item;
        if (kind === "directory") next.push({ abs: item.abs, rel });
      }
    }
    level = next;
  }
}

async function listSorted(fs: Fs, dir: string, opts: WalkOptions): Promise<DirEntry[]> {
  if (opts.signal.aborted) throw new ToolError("cancelled", "Cancelled while walking the workspace");
  let entries: DirEntry[];
  try {
    entries = await fs.readdir(dir);
  } catch {
    // An unreadable directory (permissions, removed meanwhile) is skipped, not fatal.
    return [];
  }
  return entries.filter((e) => !IGNORED_NAMES.has(e.name) && (opts.includeHidden || !e.name.startsWith("."))).sort(compareEntries);
}

/** Directories first, then by name (code-point order, so the result is stable everywhere). */
export function compareEntries(a: DirEntry, b: DirEntry): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function kindOf(entry: DirEntry): EntryKind {
  if (entry.isSymbolicLink) return "symlink";
  if (entry.isDirectory) return "directory";
  return entry.isFile ? "file" : "other";
}
