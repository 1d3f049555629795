// Creates a directory and its missing parents one component at a time, each through the handle of
// the directory above it: mkdir, then open without following a symlink. A symlink raced into the
// chain fails the open (ELOOP or ENOTDIR) instead of leading the creation elsewhere, which
// `mkdir -p` on a path cannot promise.
import type { DirHandle } from "../ports/fs.ts";
import { ToolError, fsErrorCode } from "../errors.ts";
import { openCheckedDirectory, type JailedFs } from "../security/jail/checked-open.ts";
import { isInside, relative } from "../lib/paths/posix-path.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import { descendantPath, type WorkspacePath } from "../security/jail/workspace-path.ts";

export interface MadeDirectory {
  readonly path: WorkspacePath;
  /** Components that did not exist and were made, outermost first. */
  readonly created: readonly string[];
}

/**
 * `input` resolved by the jail (mustExist: false) to `target`; makes what is missing of it.
 * Without `parents`, only the last component may be missing.
 */
export async function makeDirectoryChain(
  jailed: JailedFs,
  input: string,
  opts: { parents: boolean; mode?: number },
): Promise<MadeDirectory> {
  const { jail } = jailed;
  const target = await jail.resolve(input, { mustExist: false });
  const folder = jail.folders.filter((f) => isInside(target, f)).reduce((a, b) => (b.length > a.length ? b : a), jail.root);
  const parts = relative(folder, target)
    .split("/")
    .filter((p) => p !== "");
  let dir: DirHandle = (await openCheckedDirectory(jailed, folder, { label: input })).handle;
  const created: string[] = [];
  try {
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i] as string;
      const existing = await dir
        .entryStat(name)
        .catch((err: unknown) => (fsErrorCode(err) === "ENOENT" ? undefined : Promise.reject(fsFailure(input, err))));
      if (existing === undefined) {
        if (!opts.parents && i < parts.length - 1) {
          throw new ToolError("file_not_found", `The parent directory of ${input} does not exist`, {
            suggestion: "Create the parent first, or pass createParents: true.",
          });
        }
        // Each directory made is a write: `objects` could complete a git directory (src/security/jail/git-places.ts).
        await jail.checkWrite(descendantPath(folder, parts.slice(0, i + 1).join("/")), input);
        await dir.mkdir(name, opts.mode === undefined ? {} : { mode: opts.mode }).catch((err: unknown) => {
          // Made meanwhile by someone else: fine if it is a directory, which the open checks.
          if (fsErrorCode(err) !== "EEXIST") throw fsFailure(input, err);
        });
        created.push(parts.slice(0, i + 1).join("/"));
      } else if (!existing.isDirectory && !existing.isSymbolicLink) {
        throw new ToolError("not_a_directory", `${parts.slice(0, i + 1).join("/")} exists and is not a directory`, {
          suggestion: "Pick another path, or delete the file first.",
        });
      }
      const next = await dir.openDirectory(name).catch((err: unknown) => {
        // A symlink raced in fails O_NOFOLLOW with ELOOP, or with ENOTDIR when O_DIRECTORY is
        // checked first (Linux); a file raced in fails with ENOTDIR too. Either way the path
        // changed under us since the entry was looked at.
        const code = fsErrorCode(err);
        if (code === "ELOOP" || code === "ENOTDIR")
          throw new ToolError("invalid_path", `${input} changed while its directories were being made (a symlink or file appeared)`, {
            suggestion: "Something is replacing this path right now; retry once it is stable.",
          });
        throw fsFailure(input, err);
      });
      await dir.close();
      dir = next;
    }
  } finally {
    await dir.close().catch(() => undefined);
  }
  return { path: target, created };
}
