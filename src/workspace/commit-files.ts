// Writes several files as one change: all of them or none. POSIX has no multi-file transaction, so
// this is the closest honest thing, in phases through each file's checked parent directory:
//   1. check: every file is still the version the caller read (device, inode, size, mtime), is not
//      a hard link, and a new file is still absent;
//   2. prepare: the new content of every file goes to a temporary file beside it (same directory,
//      so the rename is atomic), with the mode the file has, else the one asked for;
//   3. swap: each temporary file is checked once more and renamed over its file.
// Most failures (permissions, a full disk, a changed file) happen before anything is swapped, and
// the temporary files are removed. A failure during the swap puts back the files already swapped
// from the original bytes the caller holds (and removes created ones), so what is left is what was.
// A removal (a file a language server's edit deletes or moves away) is one more step of the swap,
// after every write: checked like a write, then unlinked; if a later step fails it is written back
// from the bytes held, with the mode it had.
import type { FileStat } from "../ports/fs.ts";
import type { JailedFs } from "../security/jail/checked-open.ts";
import { ToolError, errorMessage } from "../errors.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { identityOf, sameIdentity, type FileIdentity } from "./file-version.ts";
import { openParentEntry, type ParentEntry } from "./parent-entry.ts";

export interface FileWrite {
  /** The path as the caller named it, for messages. */
  readonly label: string;
  /** Where the file is (the jail's real path), or is to be created. */
  readonly path: WorkspacePath;
  readonly data: Uint8Array;
  /** The version the new content was computed from, or "absent" for a file to create. */
  readonly expect: { identity: FileIdentity; original: Uint8Array } | "absent";
  /** Permission bits of a created file (an existing one keeps its own). */
  readonly mode?: number;
  /** Remove the file instead (data is then unused): it must still be the version read. */
  readonly remove?: boolean;
}

interface Prepared {
  write: FileWrite;
  entry: ParentEntry;
  temp: string | undefined;
  swapped: boolean;
  /** The mode the file had when checked (a removed one is put back with it). */
  mode: number;
}

const DEFAULT_MODE = 0o666;

export async function commitFiles(jailed: JailedFs, writes: readonly FileWrite[]): Promise<void> {
  const prepared: Prepared[] = [];
  try {
    // Where git takes code to run from, nothing is written (src/security/jail/git-places.ts).
    for (const write of writes) await jailed.jail.checkWrite(write.path, write.label);
    for (const write of writes) {
      const entry = await openParentEntry(jailed, write.path);
      prepared.push({ write, entry, temp: undefined, swapped: false, mode: DEFAULT_MODE });
    }
    const modes = await Promise.all(prepared.map(async (p) => modeFor(p.write, await check(p))));
    for (const [i, p] of prepared.entries()) p.mode = modes[i] ?? DEFAULT_MODE;
    for (const p of prepared) if (p.write.remove !== true) p.temp = await writeTemp(p, p.mode);
    // Removals last: a failed write then needs no removed file put back.
    await swapAll([...prepared.filter((p) => p.write.remove !== true), ...prepared.filter((p) => p.write.remove === true)]);
  } finally {
    for (const p of prepared) {
      if (p.temp !== undefined && !p.swapped) await p.entry.parent.remove(p.temp).catch(() => undefined);
      await p.entry.close().catch(() => undefined);
    }
  }
}

async function swapAll(prepared: Prepared[]): Promise<void> {
  for (const p of prepared) {
    try {
      await check(p);
      if (p.write.remove === true) await p.entry.parent.remove(p.entry.name);
      else await p.entry.parent.rename(p.temp as string, p.entry.parent, p.entry.name);
      p.swapped = true;
    } catch (err) {
      const failure = err instanceof ToolError ? err : fsFailure(p.write.label, err);
      const notRestored = await restore(prepared.filter((q) => q.swapped));
      if (notRestored.length === 0) throw failure;
      throw new ToolError("internal_error", `${failure.message}; and ${notRestored.join(", ")} could not be put back`, {
        suggestion: "Check those files by hand (git diff shows what changed), then retry.",
        cause: err,
      });
    }
  }
}

/** Puts back what was swapped; returns the labels it could not. */
async function restore(swapped: readonly Prepared[]): Promise<string[]> {
  const failed: string[] = [];
  for (const p of swapped) {
    try {
      if (p.write.expect === "absent") await p.entry.parent.remove(p.entry.name);
      // Exclusive: a file someone made there meanwhile is theirs, not overwritten.
      else if (p.write.remove === true)
        await p.entry.parent.writeFile(p.entry.name, p.write.expect.original, { mode: p.mode, exclusive: true });
      else await p.entry.parent.writeFile(p.entry.name, p.write.expect.original);
    } catch (err) {
      failed.push(`${p.write.label} (${errorMessage(err)})`);
    }
  }
  return failed;
}

/** The entry must still be what the caller read; returns its stat (undefined for an absent one). */
async function check(p: Prepared): Promise<FileStat | undefined> {
  const { write, entry } = p;
  const now = await entry.stat();
  if (write.expect === "absent") {
    if (write.remove === true)
      throw new ToolError("internal_error", `${write.label}: a removal needs the version read`, { suggestion: "Report this as a bug." });
    if (now !== undefined)
      throw new ToolError("file_exists", `${write.label} was created by someone else meanwhile`, {
        suggestion: "Read it and decide whether to overwrite it.",
      });
    return undefined;
  }
  if (now === undefined) throw changed(write.label, "was deleted");
  if (!now.isFile) throw changed(write.label, "is no longer a regular file");
  if (now.nlink > 1)
    throw new ToolError("invalid_path", `${write.label} is a hard link (${now.nlink} names); refusing to write through it`, {
      suggestion: "Copy the file to a new path and edit the copy.",
    });
  if (!sameIdentity(identityOf(now), write.expect.identity)) throw changed(write.label, "changed on disk");
  return now;
}

function modeFor(write: FileWrite, st: FileStat | undefined): number {
  return st !== undefined ? st.mode & 0o7777 : (write.mode ?? DEFAULT_MODE);
}

async function writeTemp(p: Prepared, mode: number): Promise<string> {
  const temp = `.cib-${crypto.randomUUID().slice(0, 12)}.tmp`;
  // A created file gets its mode minus the umask, as every new file does; an existing one keeps its own exactly.
  const exact = p.write.expect !== "absent" || p.write.mode !== undefined;
  await p.entry.parent.writeFile(temp, p.write.data, { exclusive: true, ...(exact ? { mode } : {}) }).catch((err: unknown) => {
    throw fsFailure(p.write.label, err);
  });
  return temp;
}

function changed(label: string, what: string): ToolError {
  return new ToolError("file_changed", `${label} ${what} since it was read; nothing was written`, {
    suggestion: "Read the file again and redo the edit against its current content.",
  });
}
