// A path the workspace jail has resolved: absolute, real (symlink-free when it was resolved) and
// inside a workspace folder. Only the jail (src/security/jail/) mints them, so a function that takes
// one cannot be handed a raw user string by mistake (the compiler says so); code outside derives
// new ones only through childPath and descendantPath below, and Workspace.parentOf.
import { ToolError } from "../../errors.ts";

declare const checkedByTheJail: unique symbol;

export type WorkspacePath = string & { readonly [checkedByTheJail]: true };

/** For the jail's own resolution only: its checks passed for `path`. */
export function markChecked(path: string): WorkspacePath {
  return path as WorkspacePath;
}

/**
 * The entry `name` of the checked directory `parent`. Such a child lies inside the workspace too;
 * whether it is a symlink is for the open to check (checked-open.ts), as for every checked path.
 * `name` must be one path component: a name a language server or a listing supplied is checked
 * here, so "..", "." or a "/" cannot climb out.
 */
export function childPath(parent: WorkspacePath, name: string): WorkspacePath {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
    throw new ToolError("invalid_path", `${JSON.stringify(name)} is not a single file name`, {
      suggestion: 'Name one entry of the directory: no "/", "." or "..".',
    });
  }
  return markChecked(`${parent === "/" ? "" : parent}/${name}`);
}

/** A path below the checked directory `dir`, one component at a time (`relative` "" is `dir`). */
export function descendantPath(dir: WorkspacePath, relative: string): WorkspacePath {
  return relative === "" ? dir : relative.split("/").reduce<WorkspacePath>((path, name) => childPath(path, name), dir);
}
