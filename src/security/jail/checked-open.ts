// Opening what the jail resolved, and checking what was actually opened: the resolve and
// the open are two steps, and a file swapped between them (a rename of a symlink or FIFO over it)
// must not be read. So: open without following a symlink in the last component and without
// blocking (runtime Fs.openFile), then check the descriptor itself: its type, and where the OS says
// it is (its real path must lie in the workspace). A swapped parent directory shows up in that real
// path; a swapped last component fails the open (ELOOP) or the type check.
import type { DirHandle, FileHandle, FileStat, Fs } from "../../ports/fs.ts";
import { ToolError, fsErrorCode } from "../../errors.ts";
import type { Workspace } from "./workspace-jail.ts";
import { fsFailure } from "./resolve-path.ts";
import type { WorkspacePath } from "./workspace-path.ts";

interface CheckedFile {
  readonly handle: FileHandle;
  /** fstat of the open descriptor. */
  readonly stat: FileStat;
}

interface CheckedDirectory {
  readonly handle: DirHandle;
  readonly stat: FileStat;
}

/** The runtime's filesystem with the jail its paths go through: what every checked operation needs. */
export interface JailedFs {
  readonly fs: Fs;
  readonly jail: Workspace;
}

/** Opens a regular file for reading; anything else (directory, FIFO, device, socket) is refused. */
export async function openCheckedFile(jailed: JailedFs, path: WorkspacePath, opts: { label: string }): Promise<CheckedFile> {
  const { fs, jail } = jailed;
  const { label } = opts;
  const handle = await openOrExplain(() => fs.openFile(path), label);
  try {
    const stat = await handle.stat();
    if (stat.isDirectory) {
      throw new ToolError("not_a_file", `${label} is a directory`, {
        suggestion: "List it with getFileTree, or search it with findFiles.",
      });
    }
    if (!stat.isFile) {
      throw new ToolError("not_a_file", `${label} is not a regular file (a FIFO, device or socket)`, {
        suggestion: "Only regular files can be read.",
      });
    }
    await verifyLocation(fs, jail, path, label, stat, await handle.realPath());
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

export async function openCheckedDirectory(jailed: JailedFs, path: WorkspacePath, opts: { label: string }): Promise<CheckedDirectory> {
  const { fs, jail } = jailed;
  const { label } = opts;
  const handle = await openOrExplain(() => fs.openDirectory(path), label);
  try {
    const stat = await handle.stat();
    await verifyLocation(fs, jail, path, label, stat, await handle.realPath());
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

async function openOrExplain<H>(open: () => Promise<H>, label: string): Promise<H> {
  try {
    return await open();
  } catch (err) {
    const code = fsErrorCode(err);
    // The resolved path had no symlink in it; one there now was swapped in after the check.
    if (code === "ELOOP") throw changedMeanwhile(label, err);
    if (code === "ENOTDIR")
      throw new ToolError("not_a_directory", `${label} is not a directory`, {
        suggestion: "Pass a directory, or read the file with readFile.",
        cause: err,
      });
    throw fsFailure(label, err);
  }
}

/**
 * The descriptor's real path must lie inside the workspace. Where the OS cannot say (no
 * /proc/self/fd), the path is resolved again and must name the very file that was opened.
 */
async function verifyLocation(
  fs: Fs,
  jail: Workspace,
  path: WorkspacePath,
  label: string,
  opened: FileStat,
  realPath: string | undefined,
): Promise<void> {
  if (realPath !== undefined) {
    if (!jail.contains(realPath)) throw changedMeanwhile(label);
    return;
  }
  let real: string;
  let now: FileStat;
  try {
    real = await fs.realpath(path);
    now = await fs.stat(real);
  } catch (err) {
    throw changedMeanwhile(label, err);
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino || !jail.contains(real)) throw changedMeanwhile(label);
}

function changedMeanwhile(label: string, cause?: unknown): ToolError {
  return new ToolError("invalid_path", `${label} changed while it was being opened (it now leads elsewhere)`, {
    suggestion: "Something is replacing this path right now; retry once it is stable.",
    cause,
  });
}
