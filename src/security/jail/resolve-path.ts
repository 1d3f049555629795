// Resolves an absolute path component by component with POSIX semantics: a symlink is replaced by
// its real target before the next component is looked at, so ".." after a symlink climbs from the
// target, as the kernel would (`sub/link_out/../f` is outside when link_out points outside; a
// lexical normalisation would read it as `sub/f`). Every intermediate real location must lie
// inside the workspace, so no input can make the jail probe the disk outside it.
import type { Fs } from "../../ports/fs.ts";
import { ToolError, errorMessage, fsErrorCode } from "../../errors.ts";
import { dirname, isInside } from "../../lib/paths/posix-path.ts";

interface Resolved {
  /** Real path of the deepest existing component (the whole path when it exists). */
  real: string;
  /** Components below `real` that do not exist, in order. */
  missing: string[];
}

interface ResolveScope {
  fs: Fs;
  /** The path as the caller gave it, for messages. */
  input: string;
  /** Real absolute paths of the workspace folders. */
  folders: readonly string[];
  /** Builds the error for a path that leads outside. */
  outside(why: string): ToolError;
}

/**
 * `start` is a real workspace folder, `components` the rest of the path ("." already dropped, ".."
 * kept). Symlinks are followed (they may point anywhere inside); a dangling one is refused, since
 * where a write through it would land cannot be checked.
 */
export async function resolveComponents(scope: ResolveScope, path: { start: string; components: readonly string[] }): Promise<Resolved> {
  const { start, components } = path;
  if (await symlinkFree(scope, path)) return { real: joined(start, components), missing: [] };
  let real = start;
  const missing: string[] = [];
  /** What `real` is, once known: ".." out of a file fails (ENOTDIR), as in the kernel. */
  let isDirectory: boolean | undefined = true;
  for (const component of components) {
    if (missing.length > 0) {
      // POSIX: "missing/.." fails with ENOENT, so no write may be aimed through it either.
      if (component === "..")
        throw new ToolError("invalid_path", `${scope.input} climbs out of a directory that does not exist`, {
          suggestion: 'Remove the ".." and name the target directly.',
        });
      missing.push(component);
      continue;
    }
    if (component === "..") {
      isDirectory ??= await isDirectoryNow(scope, real);
      if (!isDirectory) throw notADirectory(scope);
      real = dirname(real);
      isDirectory = true;
      if (!scope.folders.some((f) => isInside(real, f))) throw scope.outside('climbs out of the workspace with ".."');
      continue;
    }
    const candidate = real === "/" ? `/${component}` : `${real}/${component}`;
    const kind = await entryKind(scope, candidate);
    if (kind === "missing") {
      missing.push(component);
    } else if (kind === "symlink") {
      real = await realTarget(scope, candidate);
      if (!scope.folders.some((f) => isInside(real, f))) throw scope.outside("leads outside the workspace through a symbolic link");
      isDirectory = undefined;
    } else {
      real = candidate;
      isDirectory = kind === "directory";
    }
  }
  return { real, missing };
}

/**
 * The common case in one filesystem call instead of one per component: a path with no ".." whose
 * real path is itself has no symlink in it and exists, so the walk below would take every component
 * as it is and return the same path. Anything else (a symlink anywhere, a missing component, a
 * file in the middle, a case-folding filesystem) falls through to the walk, which decides alone.
 * realpath may follow a symlink out of the workspace, as the walk's own realpath of a link does,
 * but its answer is only compared with the lexical path, never reported or used.
 */
async function symlinkFree(scope: ResolveScope, path: { start: string; components: readonly string[] }): Promise<boolean> {
  if (path.components.length === 0 || path.components.includes("..")) return false;
  const lexical = joined(path.start, path.components);
  try {
    return (await scope.fs.realpath(lexical)) === lexical;
  } catch {
    return false;
  }
}

function joined(start: string, components: readonly string[]): string {
  return `${start === "/" ? "" : start}/${components.join("/")}`;
}

async function entryKind(scope: ResolveScope, path: string): Promise<"missing" | "symlink" | "directory" | "other"> {
  try {
    const st = await scope.fs.lstat(path);
    return st.isSymbolicLink ? "symlink" : st.isDirectory ? "directory" : "other";
  } catch (err) {
    const code = fsErrorCode(err);
    if (code === "ENOENT") return "missing";
    if (code === "ENOTDIR") throw notADirectory(scope);
    throw fsFailure(scope.input, err);
  }
}

async function isDirectoryNow(scope: ResolveScope, real: string): Promise<boolean> {
  try {
    return (await scope.fs.stat(real)).isDirectory;
  } catch (err) {
    throw fsFailure(scope.input, err);
  }
}

function notADirectory(scope: ResolveScope): ToolError {
  return new ToolError("invalid_path", `${scope.input}: a component of the path is a file, not a directory`, {
    suggestion: "Check the path: only its last component may be a file.",
  });
}

async function realTarget(scope: ResolveScope, link: string): Promise<string> {
  try {
    return await scope.fs.realpath(link);
  } catch (err) {
    // lstat found the link, so ENOENT means its target is missing.
    if (fsErrorCode(err) === "ENOENT") {
      throw new ToolError("invalid_path", `${scope.input} goes through a symbolic link whose target does not exist`, {
        suggestion: "Remove or fix the dangling link, or use another path.",
      });
    }
    throw fsFailure(scope.input, err);
  }
}

/** A filesystem failure on `input` as the ToolError a model can act on. */
export function fsFailure(input: string, err: unknown): ToolError {
  const code = fsErrorCode(err);
  if (code === "EACCES" || code === "EPERM")
    return new ToolError("permission_denied", `Permission denied: ${input}`, {
      suggestion: "Check the file's permissions; the bridge runs as your user.",
      cause: err,
    });
  if (code === "ELOOP")
    return new ToolError("invalid_path", `${input}: too many levels of symbolic links`, {
      suggestion: "Fix the symlink loop, or use the real path.",
      cause: err,
    });
  if (code === "ENAMETOOLONG")
    return new ToolError("invalid_path", `${input}: a name in the path is too long`, { suggestion: "Use a shorter path.", cause: err });
  if (code === "ENOENT")
    return new ToolError("file_not_found", `${input} does not exist`, {
      suggestion: "Check the spelling, or locate the file with findFiles or getFileTree.",
      cause: err,
    });
  return new ToolError("internal_error", `Cannot access ${input}: ${errorMessage(err)}`, {
    suggestion: "Retry; if it persists, check the filesystem.",
    cause: err,
  });
}
