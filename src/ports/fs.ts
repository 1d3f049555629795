// The filesystem port: paths, descriptors and watches, as every runtime adapter provides them.
import type { RuntimeError } from "./errors.ts";

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  size: number;
  mtimeMs: number;
  /**
   * When the inode last changed (content, name, mode, owner), in the file system's clock: unlike
   * mtime no process can set it, so a change always moves it. NaN where the runtime does not say.
   */
  ctimeMs: number;
  /** Owner's user id (git refuses a repository another user owns). */
  uid: number;
  /** Permission bits and file type, as stat(2) gives them. */
  mode: number;
  /** Hard link count. */
  nlink: number;
  /** Device and inode: together they name the file, whatever path reached it. */
  dev: number;
  ino: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export interface Fs {
  readFile(path: string): Promise<Uint8Array>;
  readTextFile(path: string): Promise<string>;
  /** Writes through a temporary file and a rename, so readers never see half a file. */
  writeFileAtomic(path: string, data: string | Uint8Array, opts?: { mode?: number }): Promise<void>;
  /** O_CREAT|O_EXCL|O_WRONLY with the given mode: fails with EEXIST, never follows a symlink. */
  createExclusive(path: string, data: string | Uint8Array, mode: number): Promise<void>;
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  readdir(path: string): Promise<DirEntry[]>;
  mkdir(path: string, opts?: { recursive?: boolean; mode?: number }): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * Opens a file for reading without following a symlink in its last component (ELOOP) and without
   * blocking on a FIFO or device (O_NONBLOCK), so the caller can check what it got with stat()
   * before reading anything. The workspace jail builds on this (src/security/jail/checked-open.ts).
   */
  openFile(path: string): Promise<FileHandle>;
  /** Opens a directory (O_DIRECTORY, not following a symlink) to list it and change entries in it. */
  openDirectory(path: string): Promise<DirHandle>;
  /**
   * Watches a file or directory (inotify, FSEvents...). A missing path throws ENOENT at once.
   * The watcher never keeps the process alive; close() is idempotent and stops all events.
   */
  watch(path: string, onEvent: (event: WatchEvent) => void, opts?: WatchOptions): Watcher;
}

/** An open file, used through its descriptor: what was opened, not whatever the path names now. */
export interface FileHandle {
  /** fstat(2) of the descriptor. */
  stat(): Promise<FileStat>;
  /** Up to `length` bytes from byte `position`; fewer (none at all) at the end of the file. */
  read(position: number, length: number): Promise<Uint8Array>;
  /** The absolute path the OS has for the descriptor (Linux: /proc/self/fd); undefined where it cannot tell. */
  realPath(): Promise<string | undefined>;
  /** Idempotent. */
  close(): Promise<void>;
}

/**
 * An open directory. Every operation is relative to the descriptor, so a parent directory swapped
 * for a symlink after the open cannot redirect it (on Linux through /proc/self/fd, which makes a
 * path behave like openat(2)). `name` is always a single path component.
 */
export interface DirHandle {
  stat(): Promise<FileStat>;
  realPath(): Promise<string | undefined>;
  /** The entries of the opened directory. */
  list(): Promise<DirEntry[]>;
  /** lstat(2) of an entry: a symlink is reported as one, never followed. */
  entryStat(name: string): Promise<FileStat>;
  openFile(name: string): Promise<FileHandle>;
  /**
   * The bytes of many entries at once (a runtime may read them off the main thread): each opened
   * as openFile does, undefined for one that is not a regular file of at most `maxBytes`, cannot be
   * opened, or grew while read. Optional: without it, or when it rejects, callers open the files
   * one by one.
   */
  readFiles?(names: readonly string[], maxBytes: number): Promise<(Uint8Array | undefined)[]>;
  openDirectory(name: string): Promise<DirHandle>;
  /**
   * Creates or replaces `name` atomically (a temporary file in this directory, then a rename), so
   * readers never see half a file. The mode is `mode`, else the replaced file's, else 0666 minus
   * the umask. `exclusive` fails with EEXIST when `name` exists.
   */
  writeFile(name: string, data: Uint8Array, opts?: { mode?: number; exclusive?: boolean }): Promise<void>;
  mkdir(name: string, opts?: { mode?: number }): Promise<void>;
  /** Removes an entry without following symlinks; a directory needs `recursive` unless empty. */
  remove(name: string, opts?: { recursive?: boolean }): Promise<void>;
  /** rename(2) of an entry of this directory to `targetName` in `target` (same filesystem). */
  rename(name: string, target: DirHandle, targetName: string): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface WatchEvent {
  /** "rename": a name appeared or went away; "change": content or metadata changed. */
  kind: "change" | "rename";
  /**
   * The name relative to the watched path ("sub/file" when recursive), undefined when the OS does
   * not say. Events are hints, not a log: Deno reports some twice, and an event identical to the
   * one just before it can be merged into it (inotify does, Bun within milliseconds); re-stat.
   */
  name: string | undefined;
}

export interface WatchOptions {
  /** Also watch everything below a watched directory (Linux, macOS and Windows; all three runtimes). */
  recursive?: boolean;
  /** Failures after the watch started (the watch limit reached, say); without it they are dropped. */
  onError?(err: RuntimeError): void;
}

export interface Watcher {
  close(): void;
}
