// ctx.fs: the filesystem as tools see it. It takes the user's paths, resolves them through the jail
// and hands back branded WorkspacePaths; files and directories are used through checked
// descriptors, so no raw path ever reaches the runtime and a path swapped between the check and the
// use cannot lead outside (src/security/paths.ts, src/security/checked-open.ts).
import type { DirHandle, FileStat, Fs } from "../runtime.ts";
import { ToolError, fsErrorCode } from "../errors.ts";
import { openCheckedDirectory, openCheckedFile } from "../security/checked-open.ts";
import type { ResolveOptions, Workspace } from "../security/paths.ts";
import { basename, dirname } from "../security/posix-path.ts";
import { fsFailure } from "../security/resolve-path.ts";
import { markChecked, type WorkspacePath } from "../security/workspace-path.ts";
import { kindOf, walk, type WalkEntry, type WalkOptions } from "./walk.ts";

export interface OpenedFile {
  readonly path: WorkspacePath;
  /** fstat of the open descriptor. */
  readonly stat: FileStat;
  read(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface ListedEntry {
  name: string;
  path: WorkspacePath;
  kind: WalkEntry["kind"];
}

export interface WriteOptions {
  /** Fail when the file exists (default: replace it). */
  createOnly?: boolean;
  /** Permission bits of a new file (default 0666 minus the umask); a replaced file keeps its own. */
  mode?: number;
}

export interface WorkspaceFs {
  /** Real absolute path of the workspace root. */
  readonly root: WorkspacePath;
  /** Real absolute paths of every workspace folder; the root first. */
  readonly folders: readonly WorkspacePath[];
  resolve(path: string, opts?: ResolveOptions): Promise<WorkspacePath>;
  /** Root-relative form for messages and results ("" for the root; absolute in another folder). */
  relative(path: WorkspacePath): string;
  stat(path: string): Promise<FileStat>;
  /** A directory's entries, through its checked descriptor. */
  list(dir: string): Promise<ListedEntry[]>;
  /** Opens a regular file for reading (directories, FIFOs and devices are refused); close it. */
  openFile(path: string): Promise<OpenedFile>;
  /** A small file whole, as text; larger than `maxBytes` is refused. */
  readText(path: string, opts: { maxBytes: number }): Promise<string>;
  /** Writes a file atomically through its checked parent directory; the parent must exist. */
  writeFile(path: string, data: string | Uint8Array, opts?: WriteOptions): Promise<WorkspacePath>;
  /** Breadth-first listing below a directory (symlinks listed, never followed). */
  walk(dir: string, opts: WalkOptions): AsyncGenerator<WalkEntry>;
}

export function createWorkspaceFs(fs: Fs, jail: Workspace): WorkspaceFs {
  const resolveDirectory = async (dir: string): Promise<WorkspacePath> => {
    const path = await jail.resolve(dir);
    const st = await statOf(fs, path, dir);
    if (!st.isDirectory) {
      throw new ToolError("not_a_directory", `${dir} is not a directory`, { suggestion: "Pass a directory, or read the file with readFile." });
    }
    return path;
  };
  const openFile = async (path: string): Promise<OpenedFile> => {
    const resolved = await jail.resolve(path);
    const { handle, stat } = await openCheckedFile(fs, jail, resolved, path);
    return { path: resolved, stat, read: (position, length) => handle.read(position, length), close: () => handle.close() };
  };
  return {
    root: jail.root,
    folders: jail.folders,
    resolve: (path, opts) => jail.resolve(path, opts),
    relative: (path) => jail.relative(path),
    stat: async (path) => statOf(fs, await jail.resolve(path), path),
    async list(dir) {
      const path = await resolveDirectory(dir);
      const { handle } = await openCheckedDirectory(fs, jail, path, dir);
      try {
        const entries = await handle.list();
        return entries.map((e) => ({
          name: e.name,
          // A child of a checked directory names something inside it (symlinks are listed as such).
          path: markChecked(`${path === "/" ? "" : path}/${e.name}`),
          kind: kindOf(e),
        }));
      } finally {
        await handle.close();
      }
    },
    openFile,
    async readText(path, opts) {
      const file = await openFile(path);
      try {
        if (file.stat.size > opts.maxBytes) {
          throw new ToolError("file_too_large", `${path} is ${file.stat.size} bytes; at most ${opts.maxBytes} are read here`, { suggestion: "Read a line range of it with readFile." });
        }
        // One byte more than the limit: a file that grew since the fstat is caught too.
        const bytes = await file.read(0, opts.maxBytes + 1);
        if (bytes.length > opts.maxBytes) throw new ToolError("file_too_large", `${path} grew past ${opts.maxBytes} bytes while it was read`, { suggestion: "Read a line range of it with readFile." });
        return new TextDecoder().decode(bytes);
      } finally {
        await file.close();
      }
    },
    writeFile: (path, data, opts = {}) => writeThroughParent(fs, jail, path, typeof data === "string" ? new TextEncoder().encode(data) : data, opts),
    async *walk(dir, opts) {
      yield* walk(fs, jail, await resolveDirectory(dir), opts);
    },
  };
}

async function statOf(fs: Fs, path: WorkspacePath, label: string): Promise<FileStat> {
  try {
    return await fs.lstat(path);
  } catch (err) {
    throw fsFailure(label, err);
  }
}

async function writeThroughParent(fs: Fs, jail: Workspace, input: string, data: Uint8Array, opts: WriteOptions): Promise<WorkspacePath> {
  const target = await jail.resolve(input, { mustExist: false, forWrite: true });
  const parentPath = markChecked(dirname(target));
  const name = basename(target);
  let parent: DirHandle;
  try {
    parent = (await openCheckedDirectory(fs, jail, parentPath, dirname(input))).handle;
  } catch (err) {
    if (err instanceof ToolError && err.code === "file_not_found") {
      throw new ToolError("file_not_found", `The directory of ${input} does not exist`, { suggestion: "Create the directory first, or write to an existing one." });
    }
    throw err;
  }
  try {
    // Checked again on the descriptor, right before the write: what resolve() saw may have changed.
    const existing = await parent.entryStat(name).catch((err: unknown) => {
      if (fsErrorCode(err) === "ENOENT") return undefined;
      throw fsFailure(input, err);
    });
    if (existing?.isDirectory) throw new ToolError("not_a_file", `${input} is a directory`, { suggestion: "Write to a file path inside it." });
    if (existing?.isFile && existing.nlink > 1) {
      throw new ToolError("invalid_path", `${input} is a hard link (${existing.nlink} names); refusing to write through it`, { suggestion: "Copy the file to a new path and edit the copy." });
    }
    if (existing !== undefined && opts.createOnly) throw new ToolError("invalid_arguments", `${input} already exists`, { suggestion: "Pass overwrite to replace it, or pick another name." });
    await parent.writeFile(name, data, { ...(opts.mode === undefined ? {} : { mode: opts.mode }), exclusive: opts.createOnly === true }).catch((err: unknown) => {
      if (fsErrorCode(err) === "EEXIST") throw new ToolError("invalid_arguments", `${input} already exists`, { suggestion: "Pass overwrite to replace it, or pick another name." });
      throw fsFailure(input, err);
    });
    return target;
  } finally {
    await parent.close();
  }
}
