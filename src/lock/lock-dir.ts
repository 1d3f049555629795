// Reading the lock directory through a small I/O interface, so the bridge and its commands (the
// Runtime's fs, lock-record.ts) and the shim (node:fs, shim/discovery.ts) read it the same way.
import { join } from "../lib/paths/posix-path.ts";
import { lockFilePort, type LockParser } from "./lock-fields.ts";
import type { LockEntry } from "./lock-selection.ts";

type LockFileRead =
  | { kind: "missing" }
  /** A directory, a symlink (never followed: one planted here must not redirect us) or a device. */
  | { kind: "not-a-file"; mtimeMs: number }
  | { kind: "file"; text: string; mtimeMs: number };

export interface LockDirReader {
  /** The names in `dir`; [] when it does not exist. */
  names(dir: string): Promise<string[]>;
  /** lstat, then the text of a regular file. */
  read(path: string): Promise<LockFileRead>;
}

export type LockRead =
  | { state: "missing" }
  /** Not a regular file, or not a JSON object (perhaps half-written). */
  | { state: "invalid"; text: string | undefined; mtimeMs: number }
  | { state: "valid"; text: string; mtimeMs: number; entry: LockEntry };

export async function readLock(reader: LockDirReader, path: string, opts: { port: number; parse: LockParser }): Promise<LockRead> {
  const file = await reader.read(path);
  if (file.kind === "missing") return { state: "missing" };
  if (file.kind === "not-a-file") return { state: "invalid", text: undefined, mtimeMs: file.mtimeMs };
  const lock = opts.parse(file.text);
  if (lock === undefined) return { state: "invalid", text: file.text, mtimeMs: file.mtimeMs };
  return { state: "valid", text: file.text, mtimeMs: file.mtimeMs, entry: { port: opts.port, path, mtimeMs: file.mtimeMs, lock } };
}

/** Every `<port>.lock` in `dir`, read. */
export async function readLockDir(
  reader: LockDirReader,
  dir: string,
  opts: { parse: LockParser },
): Promise<Array<{ port: number; path: string; read: LockRead }>> {
  const { parse } = opts;
  const names = await reader.names(dir);
  const reads = names.flatMap((name) => {
    const port = lockFilePort(name);
    if (port === undefined) return [];
    const path = join(dir, name);
    return [readLock(reader, path, { port, parse }).then((read) => ({ port, path, read }))];
  });
  return Promise.all(reads);
}

/** The locks that parsed, newest first. */
export async function readLockEntries(reader: LockDirReader, dir: string, opts: { parse: LockParser }): Promise<LockEntry[]> {
  const entries = (await readLockDir(reader, dir, opts)).flatMap(({ read }) => (read.state === "valid" ? [read.entry] : []));
  return entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
}
