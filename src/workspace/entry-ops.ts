// Removing and renaming entries through their checked parent directories (src/workspace/parent-entry.ts):
// the entry itself is what changes, so a symlink is removed or moved as a link, and a directory is
// removed level by level through descriptors (src/ports/fs.ts DirHandle.remove), never by a path
// that a swapped directory could redirect.
import type { FileStat } from "../ports/fs.ts";
import type { JailedFs } from "../security/jail/checked-open.ts";
import { ToolError, fsErrorCode } from "../errors.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { openParentEntry, type ParentEntry } from "./parent-entry.ts";

type EntryType = "file" | "directory" | "symlink" | "other";

export interface RemovedEntry {
  path: WorkspacePath;
  type: EntryType;
}

function entryType(st: FileStat): EntryType {
  return st.isSymbolicLink ? "symlink" : st.isDirectory ? "directory" : st.isFile ? "file" : "other";
}

export async function removeEntry(jailed: JailedFs, input: string, opts: { recursive: boolean }): Promise<RemovedEntry> {
  const entry = await openParentEntry(jailed, input);
  try {
    const st = await existing(entry, input);
    refuseRepository(entry.name, input);
    await jailed.jail.checkWrite(entry.path, input);
    await entry.parent.remove(entry.name, { recursive: opts.recursive }).catch((err: unknown) => {
      const code = fsErrorCode(err);
      if (code === "ENOTEMPTY" || code === "EEXIST")
        throw new ToolError("invalid_arguments", `${input} is a directory that is not empty`, {
          suggestion: "Pass recursive: true to delete it with everything in it.",
        });
      throw fsFailure(input, err);
    });
    return { path: entry.path, type: entryType(st) };
  } finally {
    await entry.close();
  }
}

export interface RenamedEntry {
  from: WorkspacePath;
  to: WorkspacePath;
  type: EntryType;
  /** A file was at the target and was replaced. */
  replaced: boolean;
}

export async function renameEntry(jailed: JailedFs, from: string, opts: { to: string; overwrite: boolean }): Promise<RenamedEntry> {
  const { to } = opts;
  const source = await openParentEntry(jailed, from);
  try {
    const st = await existing(source, from);
    refuseRepository(source.name, from);
    const target = await openParentEntry(jailed, to);
    try {
      // Both ends: moving a file into the hooks directory writes there as much as moving one out.
      await jailed.jail.checkWrite(source.path, from);
      await jailed.jail.checkWrite(target.path, to);
      const there = await target.stat();
      if (there !== undefined && target.path === source.path)
        return { from: source.path, to: target.path, type: entryType(st), replaced: false };
      if (there?.isDirectory)
        throw new ToolError("file_exists", `${to} is an existing directory`, {
          suggestion: "Rename to a path that does not exist, or delete the directory first.",
        });
      if (there !== undefined && !opts.overwrite)
        throw new ToolError("file_exists", `${to} already exists`, {
          suggestion: "Pass overwrite: true to replace it, or pick another name.",
        });
      await source.parent.rename(source.name, target.parent, target.name).catch((err: unknown) => {
        const code = fsErrorCode(err);
        if (code === "EXDEV")
          throw new ToolError("invalid_arguments", `${from} and ${to} are on different filesystems`, {
            suggestion: "Copy the file with createFile and delete the old one.",
          });
        if (code === "EINVAL")
          throw new ToolError("invalid_arguments", `${to} is inside ${from}`, {
            suggestion: "A directory cannot be moved into itself; pick a target outside it.",
          });
        throw fsFailure(from, err);
      });
      return { from: source.path, to: target.path, type: entryType(st), replaced: there !== undefined };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function existing(entry: ParentEntry, input: string): Promise<FileStat> {
  const st = await entry.stat();
  if (st === undefined)
    throw new ToolError("file_not_found", `${input} does not exist`, {
      suggestion: "Check the spelling, or locate it with findFiles or getFileTree.",
    });
  return st;
}

/** A repository's history is not a workspace file: losing it to one call is too easy. */
function refuseRepository(name: string, input: string): void {
  if (name === ".git")
    throw new ToolError("permission_denied", `${input} is a git repository's data; the bridge does not delete or move it`, {
      suggestion: "Do this from a terminal if you really mean it.",
    });
}
