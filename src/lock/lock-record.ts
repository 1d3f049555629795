// Reading and judging one `<port>.lock`. The directory is shared with real IDEs (VS Code, JetBrains,
// Neovim, Emacs all write there; protocol.md A1), so a lock is only called stale on hard evidence.
import { fsErrorCode } from "../errors.ts";
import type { Runtime } from "../runtime.ts";

/** The fields we rely on; IDE-written locks have more or fewer, and we keep whatever is there. */
export interface LockRecord {
  pid: number;
  startedAt?: number;
  nonce?: string;
  runningInWindows?: boolean;
}

export type LockRead =
  | { state: "missing" }
  /** Not a regular file, not JSON, or no usable pid. */
  | { state: "invalid"; text: string | undefined; mtimeMs: number }
  | { state: "valid"; text: string; record: LockRecord };

/**
 * A live process that started this long after the lock was written cannot be its writer (the bridge
 * writes its lock at start-up), so its pid was reused. The slack absorbs wall-clock steps (NTP, VM
 * resume), which shift the computed start time; an hour keeps a live lock safe from those while still
 * catching the common case of a crash and a pid handed out again much later.
 */
export const PID_REUSE_SLACK_MS = 60 * 60 * 1000;

export async function readLock(runtime: Runtime, path: string): Promise<LockRead> {
  let stat;
  try {
    // lstat: a planted symlink is judged as what it is, never followed to its target.
    stat = await runtime.fs.lstat(path);
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return { state: "missing" };
    throw err;
  }
  if (!stat.isFile) return { state: "invalid", text: undefined, mtimeMs: stat.mtimeMs };
  let text: string;
  try {
    text = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return { state: "missing" };
    throw err;
  }
  const record = parseRecord(text);
  return record === undefined ? { state: "invalid", text, mtimeMs: stat.mtimeMs } : { state: "valid", text, record };
}

/** Whether the lock's owner is gone: a dead pid, or a pid reused by a younger program. */
export async function isAbandoned(runtime: Runtime, record: LockRecord): Promise<boolean> {
  // A Windows IDE's pid means nothing inside WSL (Claude Code skips the check there too).
  if (record.runningInWindows === true && runtime.platform !== "win32") return false;
  if (!runtime.processAlive(record.pid)) return true;
  if (record.startedAt === undefined) return false;
  const started = await runtime.processStartTime(record.pid);
  return started !== undefined && started > record.startedAt + PID_REUSE_SLACK_MS;
}

/** Removes the file only if it still holds `text`, so a lock rewritten meanwhile survives. */
export async function removeIfUnchanged(runtime: Runtime, path: string, text: string | undefined): Promise<boolean> {
  const now = await readLock(runtime, path);
  if (now.state === "missing") return false;
  if (now.text !== text) return false;
  try {
    await runtime.fs.rm(path);
    return true;
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return false;
    throw err;
  }
}

function parseRecord(text: string): LockRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null || !("pid" in json)) return undefined;
  const { pid } = json;
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return undefined;
  const record: LockRecord = { pid };
  if ("startedAt" in json && typeof json.startedAt === "number") record.startedAt = json.startedAt;
  if ("nonce" in json && typeof json.nonce === "string") record.nonce = json.nonce;
  if ("runningInWindows" in json && typeof json.runningInWindows === "boolean") record.runningInWindows = json.runningInWindows;
  return record;
}
