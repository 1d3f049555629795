// A FileStat for tests whose made-up file systems say only what kind of entry a path is.
import type { FileStat } from "../../src/ports/fs.ts";

export function fakeStat(kind: "file" | "dir" | "link"): FileStat {
  return {
    size: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    uid: 0,
    mode: 0,
    nlink: 1,
    dev: 1,
    ino: 1,
    isFile: kind === "file",
    isDirectory: kind === "dir",
    isSymbolicLink: kind === "link",
  };
}
