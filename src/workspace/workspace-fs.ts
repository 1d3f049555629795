// ctx.fs: the filesystem as tools see it. It takes the user's paths, resolves them through the jail
// and hands back branded WorkspacePaths; files and directories are used through checked
// descriptors, so no raw path ever reaches the runtime and a path swapped between the check and the
// use cannot lead outside (src/security/jail/workspace-jail.ts, src/security/jail/checked-open.ts). Each operation
// lives in its own module of src/workspace; this file puts them behind one interface.
import type { FileStat, Fs, WatchEvent, Watcher, WatchOptions } from "../ports/fs.ts";
import { ToolError } from "../errors.ts";
import { openCheckedDirectory, openCheckedFile, type JailedFs } from "../security/jail/checked-open.ts";
import type { ResolveOptions, Workspace } from "../security/jail/workspace-jail.ts";
import { fsFailure } from "../security/jail/resolve-path.ts";
import { childPath, type WorkspacePath } from "../security/jail/workspace-path.ts";
import { commitFiles, type FileWrite } from "./commit-files.ts";
import { makeDirectoryChain, type MadeDirectory } from "./directory-chain.ts";
import { removeEntry, renameEntry, type RemovedEntry, type RenamedEntry } from "./entry-ops.ts";
import { openParentEntry } from "./parent-entry.ts";
import { readMany, type ReadManyOptions, type ReadResult } from "./read-many.ts";
import { kindOf, walk, type WalkEntry, type WalkOptions } from "./walk.ts";
import { writeThroughParent, type WriteOptions } from "./write-through-parent.ts";

export type { FileWrite } from "./commit-files.ts";

export interface OpenedFile {
  readonly path: WorkspacePath;
  /** fstat of the open descriptor. */
  readonly stat: FileStat;
  read(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

interface ListedEntry {
  name: string;
  path: WorkspacePath;
  kind: WalkEntry["kind"];
}

interface FileBytes {
  readonly path: WorkspacePath;
  readonly bytes: Uint8Array;
  /** fstat of the descriptor the bytes were read through. */
  readonly stat: FileStat;
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
  /** lstat of the entry itself (a symlink is not followed); undefined when there is none (nor a directory for it). */
  entryStat(path: string): Promise<FileStat | undefined>;
  /** A directory's entries, through its checked descriptor. */
  list(dir: string): Promise<ListedEntry[]>;
  /** Opens a regular file for reading (directories, FIFOs and devices are refused); close it. */
  openFile(path: string): Promise<OpenedFile>;
  /** A small file whole, as text; larger than `maxBytes` is refused. */
  readText(path: string, opts: { maxBytes: number }): Promise<string>;
  /** A file whole, as bytes, with the stat of what was read; `forWrite` refuses hard links. */
  readBytes(path: string, opts: { maxBytes: number; forWrite?: boolean }): Promise<FileBytes>;
  /**
   * A file the jail already resolved, whole, as text, without resolving it again: the open is
   * still checked (no symlink as the last component, the descriptor's real path in the workspace),
   * so a component swapped since is caught there. For a caller that just resolved it (src/lsp).
   */
  readResolvedText(path: WorkspacePath, opts: { maxBytes: number }): Promise<string>;
  /** Many regular files' bytes, in the order given, each directory opened checked once (read-many.ts). */
  readMany(paths: readonly string[], opts: ReadManyOptions): AsyncGenerator<ReadResult>;
  /** Writes a file atomically through its checked parent directory; the parent must exist. */
  writeFile(path: string, data: string | Uint8Array, opts?: WriteOptions): Promise<WorkspacePath>;
  /** Writes several files, all or none, each only if still the version read (commit-files.ts). */
  commit(writes: readonly FileWrite[]): Promise<void>;
  /** Makes a directory (and with `parents` its missing parents), one checked component at a time. */
  makeDirectory(path: string, opts: { parents: boolean; mode?: number }): Promise<MadeDirectory>;
  /** Removes the entry itself (a symlink, not its target); a non-empty directory needs `recursive`. */
  remove(path: string, opts: { recursive: boolean }): Promise<RemovedEntry>;
  /** Renames the entry itself; an existing target file is replaced only with `overwrite`. */
  rename(from: string, to: string, opts: { overwrite: boolean }): Promise<RenamedEntry>;
  /** Breadth-first listing below a directory (symlinks listed, never followed). */
  walk(dir: string, opts: WalkOptions): AsyncGenerator<WalkEntry>;
  /** Watches a directory (recursively) through the runtime; names in events are relative to it. */
  watch(dir: string, onEvent: (event: WatchEvent) => void, opts?: WatchOptions): Promise<{ path: WorkspacePath; watcher: Watcher }>;
}

export function createWorkspaceFs(fs: Fs, jail: Workspace): WorkspaceFs {
  const jailed: JailedFs = { fs, jail };
  const resolveDirectory = async (dir: string): Promise<WorkspacePath> => {
    const path = await jail.resolve(dir);
    const st = await statOf(fs, path, dir);
    if (!st.isDirectory) {
      throw new ToolError("not_a_directory", `${dir} is not a directory`, {
        suggestion: "Pass a directory, or read the file with readFile.",
      });
    }
    return path;
  };
  const openFile = async (path: string, opts: ResolveOptions = {}): Promise<OpenedFile> => {
    const resolved = await jail.resolve(path, opts);
    const { handle, stat } = await openCheckedFile(jailed, resolved, { label: path });
    return { path: resolved, stat, read: (position, length) => handle.read(position, length), close: () => handle.close() };
  };
  const readBytes = async (path: string, opts: { maxBytes: number; forWrite?: boolean }): Promise<FileBytes> =>
    readOpened(await openFile(path, { forWrite: opts.forWrite === true }), path, opts.maxBytes);
  const readOpened = async (file: OpenedFile, path: string, maxBytes: number): Promise<FileBytes> => {
    const opts = { maxBytes };
    try {
      if (file.stat.size > opts.maxBytes) {
        throw new ToolError("file_too_large", `${path} is ${file.stat.size} bytes; at most ${opts.maxBytes} are read here`, {
          suggestion: "Read a line range of it with readFile.",
        });
      }
      // One byte more than the file's size (bounded by the limit): a file that grew since the fstat is caught too.
      const bytes = await file.read(0, Math.min(opts.maxBytes, file.stat.size) + 1);
      if (bytes.length > opts.maxBytes)
        throw new ToolError("file_too_large", `${path} grew past ${opts.maxBytes} bytes while it was read`, {
          suggestion: "Read a line range of it with readFile.",
        });
      if (bytes.length > file.stat.size)
        throw new ToolError("file_changed", `${path} grew while it was read`, {
          suggestion: "Something is writing it right now; retry once it is done.",
        });
      return { path: file.path, bytes, stat: file.stat };
    } finally {
      await file.close();
    }
  };
  return {
    root: jail.root,
    folders: jail.folders,
    resolve: (path, opts) => jail.resolve(path, opts),
    relative: (path) => jail.relative(path),
    stat: async (path) => statOf(fs, await jail.resolve(path), path),
    async entryStat(path) {
      const entry = await openParentEntry(jailed, path).catch((err: unknown) => {
        // No parent directory (or a file where one should be): then there is no such entry either.
        if (err instanceof ToolError && (err.code === "file_not_found" || err.code === "not_a_directory")) return undefined;
        throw err;
      });
      if (entry === undefined) return undefined;
      try {
        return await entry.stat();
      } finally {
        await entry.close();
      }
    },
    async list(dir) {
      const path = await resolveDirectory(dir);
      const { handle } = await openCheckedDirectory(jailed, path, { label: dir });
      try {
        const entries = await handle.list();
        return entries.map((e) => ({
          name: e.name,
          // A child of a checked directory names something inside it (symlinks are listed as such).
          path: childPath(path, e.name),
          kind: kindOf(e),
        }));
      } finally {
        await handle.close();
      }
    },
    openFile: (path) => openFile(path),
    readText: async (path, opts) => new TextDecoder().decode((await readBytes(path, opts)).bytes),
    readBytes,
    async readResolvedText(path, opts) {
      const { handle, stat } = await openCheckedFile(jailed, path, { label: jail.relative(path) });
      const file: OpenedFile = { path, stat, read: (position, length) => handle.read(position, length), close: () => handle.close() };
      return new TextDecoder().decode((await readOpened(file, jail.relative(path), opts.maxBytes)).bytes);
    },
    readMany: (paths, opts) => readMany(jailed, paths, opts),
    writeFile: (path, data, opts = {}) =>
      writeThroughParent(jailed, path, { ...opts, data: typeof data === "string" ? new TextEncoder().encode(data) : data }),
    commit: (writes) => commitFiles(jailed, writes),
    makeDirectory: (path, opts) => makeDirectoryChain(jailed, path, opts),
    remove: (path, opts) => removeEntry(jailed, path, opts),
    rename: (from, to, opts) => renameEntry(jailed, from, { ...opts, to }),
    async *walk(dir, opts) {
      yield* walk(jailed, await resolveDirectory(dir), opts);
    },
    async watch(dir, onEvent, opts) {
      const path = await resolveDirectory(dir);
      try {
        return { path, watcher: fs.watch(path, onEvent, opts) };
      } catch (err) {
        throw fsFailure(dir, err);
      }
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
