// FileHandle and DirHandle of the Runtime port (src/ports/fs.ts) on node:fs/promises; Bun and Deno
// run it too, with real descriptors and /proc. On Linux every directory-relative operation goes
// through /proc/self/fd/<fd>/<name>: the kernel resolves that magic link to the directory the
// descriptor holds, not to whatever its old path names now, which makes a path call behave like
// openat(2)/renameat(2) (Node has neither). Elsewhere the handle falls back to the path it was
// opened with, and the caller's checks of stat() (device and inode) are what is left.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { DirEntry, DirHandle, FileHandle, FileStat } from "../../src/ports/fs.ts";
import { toFileStat, toDirEntry } from "./fs-stat.ts";
import { toRuntimeError, translated } from "./errors.ts";
import { readFilesInWorker } from "./read-worker.ts";

// Windows has neither flag; the jail then relies on its lstat and stat checks alone.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOCTTY = constants.O_NOCTTY ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
/** O_NONBLOCK: opening a FIFO or a device never waits (a blocked open would hold an I/O thread). */
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK | NOCTTY;
const DIRECTORY_FLAGS = constants.O_RDONLY | DIRECTORY | NOFOLLOW;
const PROC_FD = "/proc/self/fd";

let procFd: Promise<boolean> | undefined;
/** Whether /proc/self/fd resolves descriptors here (Linux with /proc mounted). */
function hasProcFd(): Promise<boolean> {
  procFd ??=
    process.platform === "linux"
      ? fsp.access(PROC_FD).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  return procFd;
}

export const openFile = translated(async (path: string): Promise<FileHandle> => new NodeFileHandle(await fsp.open(path, READ_FLAGS)));

export const openDirectory = translated(async (path: string): Promise<DirHandle> => {
  const handle = await fsp.open(path, DIRECTORY_FLAGS);
  // O_DIRECTORY makes a non-directory fail with ENOTDIR on POSIX; Windows has no such flag.
  if (DIRECTORY === 0 && !(await handle.stat()).isDirectory()) {
    await handle.close();
    throw new RuntimeError("ENOTDIR", `${path} is not a directory`);
  }
  return new NodeDirHandle(handle, path, await hasProcFd());
});

class NodeFileHandle implements FileHandle {
  private closed = false;
  constructor(private readonly handle: fsp.FileHandle) {}

  stat = translated(async (): Promise<FileStat> => toFileStat(await this.handle.stat()));

  read = translated(async (position: number, length: number): Promise<Uint8Array> => {
    const buffer = new Uint8Array(Math.max(0, length));
    if (buffer.length === 0) return buffer;
    const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
    return buffer.subarray(0, bytesRead);
  });

  realPath = (): Promise<string | undefined> => descriptorPath(this.handle.fd);

  close = translated(async (): Promise<void> => {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  });
}

class NodeDirHandle implements DirHandle {
  private closed = false;
  /** readFiles calls in flight: close waits for them. */
  private readonly reading = new Set<Promise<unknown>>();
  /** Where names are resolved: the descriptor itself on Linux, else the opened path. */
  private readonly base: string;

  constructor(
    private readonly handle: fsp.FileHandle,
    openedPath: string,
    viaProc: boolean,
  ) {
    this.base = viaProc ? `${PROC_FD}/${handle.fd}` : openedPath;
  }

  stat = translated(async (): Promise<FileStat> => toFileStat(await this.handle.stat()));

  realPath = (): Promise<string | undefined> => descriptorPath(this.handle.fd);

  list = translated(async (): Promise<DirEntry[]> => (await fsp.readdir(this.base, { withFileTypes: true })).map(toDirEntry));

  entryStat = translated(async (name: string): Promise<FileStat> => toFileStat(await fsp.lstat(this.at(name))));

  openFile = (name: string): Promise<FileHandle> => openFile(this.at(name));

  readFiles = async (names: readonly string[], maxBytes: number): Promise<(Uint8Array | undefined)[]> => {
    const paths = names.map((name) => {
      try {
        return this.at(name);
      } catch {
        return undefined;
      }
    });
    const valid = paths.filter((p): p is string => p !== undefined);
    if (this.closed) throw new RuntimeError("EINVAL", "readFiles on a closed directory handle");
    // A worker that cannot start or dies (a runtime without worker threads) rejects: the caller
    // then opens the files one by one (src/workspace/read-many.ts).
    const reading = readFilesInWorker(valid, { flags: READ_FLAGS, maxBytes });
    this.reading.add(reading);
    let read: (Uint8Array | undefined)[];
    try {
      read = await reading;
    } finally {
      this.reading.delete(reading);
    }
    let next = 0;
    return paths.map((p) => (p === undefined ? undefined : read[next++]));
  };

  openDirectory = (name: string): Promise<DirHandle> => openDirectory(this.at(name));

  writeFile = translated(async (name: string, data: Uint8Array, opts: { mode?: number; exclusive?: boolean } = {}): Promise<void> => {
    const target = this.at(name);
    if (opts.exclusive) return createExclusive(target, data, opts.mode ?? 0o666, opts.mode !== undefined);
    const mode = opts.mode ?? (await existingMode(target));
    // A short fixed-length name: one derived from `name` could pass NAME_MAX for a long name.
    const temp = this.at(`.cib-${randomBytes(6).toString("hex")}.tmp`);
    try {
      await createExclusive(temp, data, mode ?? 0o666, mode !== undefined);
      await fsp.rename(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  });

  mkdir = translated(async (name: string, opts: { mode?: number } = {}): Promise<void> => {
    await fsp.mkdir(this.at(name), opts.mode === undefined ? {} : { mode: opts.mode });
  });

  remove = translated(async (name: string, opts: { recursive?: boolean } = {}): Promise<void> => {
    const path = this.at(name);
    const st = await fsp.lstat(path);
    if (!st.isDirectory()) return fsp.unlink(path);
    if (opts.recursive) {
      // Through a descriptor per level, never by path: rm -r by path follows a directory that was
      // swapped for a symlink between its lstat and its listing, and deletes outside.
      const child = await openDirectory(path);
      try {
        for (const entry of await child.list()) await child.remove(entry.name, { recursive: true });
      } finally {
        await child.close();
      }
    }
    await fsp.rmdir(path);
  });

  rename = translated(async (name: string, target: DirHandle, targetName: string): Promise<void> => {
    if (!(target instanceof NodeDirHandle))
      throw new RuntimeError("EINVAL", "rename: the target directory handle is not from this runtime");
    await fsp.rename(this.at(name), target.at(targetName));
  });

  close = translated(async (): Promise<void> => {
    if (this.closed) return;
    this.closed = true;
    // The worker opens names through /proc/self/fd/<fd>: the number must not be reused (by another
    // directory, say one outside the workspace) before it is done.
    await Promise.allSettled(this.reading);
    await this.handle.close();
  });

  /** The path of entry `name`, which must be one component (never "", ".", ".." or with a "/"). */
  private at(name: string): string {
    if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
      throw new RuntimeError("EINVAL", `not a single path component: ${JSON.stringify(name)}`);
    }
    return join(this.base, name);
  }
}

async function descriptorPath(fd: number): Promise<string | undefined> {
  if (!(await hasProcFd())) return undefined;
  try {
    const path = await fsp.readlink(`${PROC_FD}/${fd}`);
    // "/x (deleted)" and the like: the kernel has no usable path for it any more.
    return path.startsWith("/") && !path.endsWith(" (deleted)") ? path : undefined;
  } catch (err) {
    throw toRuntimeError(err);
  }
}

/** O_CREAT|O_EXCL|O_NOFOLLOW: fails with EEXIST on any existing name, a symlink included. */
async function createExclusive(path: string, data: Uint8Array, mode: number, exactMode: boolean): Promise<void> {
  const handle = await fsp.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW, mode);
  try {
    await handle.writeFile(data);
    // An explicit or inherited mode must survive the umask.
    if (exactMode) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.rm(path, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The permission bits of the file being replaced; none for a new name or a symlink (0777 says nothing). */
async function existingMode(path: string): Promise<number | undefined> {
  try {
    const st = await fsp.lstat(path);
    return st.isSymbolicLink() ? undefined : st.mode & 0o7777;
  } catch {
    return undefined;
  }
}
