// node:fs Stats and Dirents in the port's shapes (src/ports/fs.ts), shared by the path-based Fs and
// the descriptor handles.
import type { Dirent, Stats } from "node:fs";
import type { DirEntry, FileStat } from "../../src/ports/fs.ts";

export function toFileStat(s: Stats): FileStat {
  return {
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymbolicLink: s.isSymbolicLink(),
    size: s.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: Number.isFinite(s.ctimeMs) ? s.ctimeMs : Number.NaN,
    uid: s.uid,
    mode: s.mode,
    nlink: s.nlink,
    dev: s.dev,
    ino: s.ino,
  };
}

export function toDirEntry(d: Dirent): DirEntry {
  return { name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory(), isSymbolicLink: d.isSymbolicLink() };
}
