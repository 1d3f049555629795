// ctx.fs's plain write: one file, atomically, through its checked parent directory. The edit tools
// use commitFiles (src/workspace/commit-files.ts), which also checks the version a caller read.
import type { DirHandle } from "../ports/fs.ts";
import { ToolError, fsErrorCode } from "../errors.ts";
import { openCheckedDirectory, type JailedFs } from "../security/jail/checked-open.ts";
import { basename, dirname } from "../lib/paths/posix-path.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";

export interface WriteOptions {
  /** Fail when the file exists (default: replace it). */
  createOnly?: boolean;
  /** Permission bits of a new file (default 0666 minus the umask); a replaced file keeps its own. */
  mode?: number;
}

export async function writeThroughParent(
  jailed: JailedFs,
  input: string,
  opts: WriteOptions & { data: Uint8Array },
): Promise<WorkspacePath> {
  const { jail } = jailed;
  const { data } = opts;
  const target = await jail.resolve(input, { mustExist: false, forWrite: true });
  const parentPath = jail.parentOf(target);
  const name = basename(target);
  let parent: DirHandle;
  try {
    parent = (await openCheckedDirectory(jailed, parentPath, { label: dirname(input) })).handle;
  } catch (err) {
    if (err instanceof ToolError && err.code === "file_not_found") {
      throw new ToolError("file_not_found", `The directory of ${input} does not exist`, {
        suggestion: "Create the directory first, or write to an existing one.",
      });
    }
    throw err;
  }
  try {
    // Checked again on the descriptor, right before the write: what resolve() saw may have changed.
    const existing = await parent.entryStat(name).catch((err: unknown) => {
      if (fsErrorCode(err) === "ENOENT") return undefined;
      throw fsFailure(input, err);
    });
    if (existing?.isDirectory)
      throw new ToolError("not_a_file", `${input} is a directory`, { suggestion: "Write to a file path inside it." });
    if (existing?.isFile && existing.nlink > 1) {
      throw new ToolError("invalid_path", `${input} is a hard link (${existing.nlink} names); refusing to write through it`, {
        suggestion: "Copy the file to a new path and edit the copy.",
      });
    }
    if (existing !== undefined && opts.createOnly)
      throw new ToolError("file_exists", `${input} already exists`, {
        suggestion: "Pass overwrite: true to replace it, or pick another name.",
      });
    await parent
      .writeFile(name, data, { ...(opts.mode === undefined ? {} : { mode: opts.mode }), exclusive: opts.createOnly === true })
      .catch((err: unknown) => {
        if (fsErrorCode(err) === "EEXIST")
          throw new ToolError("file_exists", `${input} already exists`, {
            suggestion: "Pass overwrite: true to replace it, or pick another name.",
          });
        throw fsFailure(input, err);
      });
    return target;
  } finally {
    await parent.close();
  }
}
