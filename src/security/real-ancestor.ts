// Finds the deepest existing ancestor of a path and its real (symlink-free) location.
// Existence is tested with lstat, not stat, so a symlink counts as existing even when its
// target does not: otherwise a dangling link `ws/out -> /etc/new` would look like a missing
// file whose parent is inside, and a later write would follow the link out of the workspace.
import type { Fs } from "../runtime.ts";
import { ToolError, errorMessage, fsErrorCode } from "../errors.ts";
import { basename, dirname } from "./posix-path.ts";

export interface RealAncestor {
  /** Real path of the deepest existing ancestor (the path itself when it exists). */
  real: string;
  /** Components below `real` that do not exist yet, in order. */
  missing: string[];
}

export async function realAncestor(fs: Fs, absolute: string): Promise<RealAncestor> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    if (await exists(fs, current)) {
      return { real: await realOf(fs, current), missing };
    }
    if (current === "/") throw new ToolError("internal_error", "The filesystem root does not exist");
    missing.unshift(basename(current));
    current = dirname(current);
  }
}

async function exists(fs: Fs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (err) {
    const code = fsErrorCode(err);
    if (code === "ENOENT") return false;
    if (code === "ENOTDIR") {
      throw new ToolError("invalid_path", `${path}: a component of the path is a file, not a directory`);
    }
    throw fsFailure(path, err);
  }
}

async function realOf(fs: Fs, path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch (err) {
    // lstat found it, so ENOENT here means a symlink whose target is missing: where a write
    // would land cannot be checked, so refuse.
    if (fsErrorCode(err) === "ENOENT") {
      throw new ToolError("invalid_path", `${path} is a symbolic link whose target does not exist`, {
        suggestion: "Remove or fix the dangling link, or use another path.",
      });
    }
    throw fsFailure(path, err);
  }
}

function fsFailure(path: string, err: unknown): ToolError {
  const code = fsErrorCode(err);
  if (code === "EACCES" || code === "EPERM") {
    return new ToolError("permission_denied", `Permission denied: ${path}`, { cause: err });
  }
  if (code === "ELOOP") {
    return new ToolError("invalid_path", `${path}: too many levels of symbolic links`, { cause: err });
  }
  if (code === "ENAMETOOLONG") {
    return new ToolError("invalid_path", `${path}: name too long`, { cause: err });
  }
  return new ToolError("internal_error", `Cannot resolve ${path}: ${errorMessage(err)}`, { cause: err });
}
