// An entry named by its parent directory and its own name, for the operations that act on the entry
// itself and not on what it points to: deleting or renaming a symlink removes or moves the link,
// never its target. The parent is resolved through the jail and opened checked; the name is one
// component, so whatever it is (a link to anywhere, a FIFO), only this directory's entry is touched.
import type { DirHandle, FileStat } from "../ports/fs.ts";
import { ToolError, fsErrorCode } from "../errors.ts";
import { openCheckedDirectory, type JailedFs } from "../security/jail/checked-open.ts";
import { fromFileUri } from "../lib/paths/file-uri.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import { childPath, type WorkspacePath } from "../security/jail/workspace-path.ts";

export interface ParentEntry {
  readonly parent: DirHandle;
  /** The parent's real path. */
  readonly parentPath: WorkspacePath;
  readonly name: string;
  /** parentPath/name: inside the workspace, though a symlink there may point anywhere. */
  readonly path: WorkspacePath;
  /** lstat of the entry now, undefined when it does not exist. */
  stat(): Promise<FileStat | undefined>;
  close(): Promise<void>;
}

/** Opens the parent of `input`; the entry itself need not exist. */
export async function openParentEntry(jailed: JailedFs, input: string): Promise<ParentEntry> {
  const { dir, name } = splitLast(input);
  let parentPath: WorkspacePath;
  try {
    parentPath = await jailed.jail.resolve(dir);
  } catch (err) {
    if (err instanceof ToolError && err.code === "file_not_found") {
      throw new ToolError("file_not_found", `The directory of ${input} does not exist`, {
        suggestion: "Check the path; create the directory first if it should exist.",
      });
    }
    throw err;
  }
  const { handle, stat } = await openCheckedDirectory(jailed, parentPath, { label: dir });
  if (!stat.isDirectory) {
    await handle.close();
    throw new ToolError("not_a_directory", `${dir} is not a directory`, { suggestion: "Only the last component of a path may be a file." });
  }
  return {
    parent: handle,
    parentPath,
    name,
    path: childPath(parentPath, name),
    stat: () =>
      handle.entryStat(name).catch((err: unknown) => {
        if (fsErrorCode(err) === "ENOENT") return undefined;
        throw fsFailure(input, err);
      }),
    close: () => handle.close(),
  };
}

/** The directory part and the last component of a user path (a file URI included). */
export function splitLast(input: string): { dir: string; name: string } {
  const path = /^file:/i.test(input) ? fromFileUri(input) : input;
  if (path === undefined) {
    throw new ToolError("invalid_path", `Not a usable local file URI: ${input}`, {
      suggestion: "Use file:///absolute/path (no host, query or fragment), or a plain path.",
    });
  }
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const cut = trimmed.lastIndexOf("/");
  const name = cut < 0 ? trimmed : trimmed.slice(cut + 1);
  if (name === "" || name === "." || name === ".." || name.includes("\0")) {
    throw new ToolError("invalid_path", `${input} does not name an entry (it ends in "${name || "/"}")`, {
      suggestion: 'Name the file or directory itself, e.g. "src/old.ts", not "." or "..".',
    });
  }
  const dir = cut < 0 ? "." : cut === 0 ? "/" : trimmed.slice(0, cut);
  return { dir, name };
}
