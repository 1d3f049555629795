// What identifies the version of a file a caller read, so a later write can refuse when the file
// changed meanwhile: a short content hash for the caller to hand back (expectedHash), and the
// descriptor's identity (device, inode, size, mtime) for the bridge's own check right before it
// writes. An atomic write makes a new inode, so any write in between shows up.
import type { FileStat } from "../ports/fs.ts";

/** Hex digits of SHA-256 shown and compared: 64 bits, plenty to tell versions of one file apart. */
const HASH_CHARS = 16;

export async function contentHash(bytes: Uint8Array): Promise<string> {
  // A copy: digest() takes only memory that cannot be shared, which the type of `bytes` does not promise.
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  let hex = "";
  for (const byte of digest.subarray(0, HASH_CHARS / 2)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** A caller's hash matches when it is this one, or a longer or shorter (>= 8 digits) form of it. */
export function hashMatches(expected: string, actual: string): boolean {
  const given = expected.trim().toLowerCase();
  if (given.length < 8) return false;
  return given.length >= actual.length ? given.startsWith(actual) : actual.startsWith(given);
}

export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

export function identityOf(stat: FileStat): FileIdentity {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The mtime as callers see it and pass back: whole milliseconds since the epoch. */
export function wholeMtime(stat: { mtimeMs: number }): number {
  return Math.trunc(stat.mtimeMs);
}
