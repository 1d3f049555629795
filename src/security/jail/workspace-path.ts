// A path the workspace jail has resolved: absolute, real (symlink-free when it was resolved) and
// inside a workspace folder. Only src/security mints them, so a function that takes one cannot be
// handed a raw user string by mistake (the compiler says so).
declare const checkedByTheJail: unique symbol;

export type WorkspacePath = string & { readonly [checkedByTheJail]: true };

/** For src/security only: the jail's checks passed for `path`. */
export function markChecked(path: string): WorkspacePath {
  return path as WorkspacePath;
}
