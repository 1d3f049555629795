// The activity log on disk, `activity-<port>.jsonl` beside the lock files: one entry per line,
// mode 0600 (the entries name tools and sessions of the user). Written whole through a temporary
// file (at most 500 lines), at most once per second while entries come, and at stop. When 500
// new entries have been written since the last rotation, the file becomes `activity-<port>.1.jsonl`
// (the one before is replaced), so the history on disk is bounded to two files.
import { errorMessage } from "../../errors.ts";
import type { Fs } from "../../ports/fs.ts";
import type { ActivityEntry } from "./activity-entry.ts";
import type { ActivityLog } from "./activity-log.ts";

const FLUSH_MS = 1000;
const FILE_MODE = 0o600;

export interface ActivityFile {
  /** Writes what is pending now (the bridge's stop). */
  flush(): Promise<void>;
  /** Stops writing on new entries; what is pending is written by a last flush() first. */
  close(): Promise<void>;
}

export interface ActivityFileOptions {
  fs: Pick<Fs, "readTextFile" | "writeFileAtomic" | "rename" | "mkdir">;
  dir: string;
  port: number;
  onError?(message: string): void;
}

export function activityFilePath(dir: string, port: number, opts: { rotated?: boolean } = {}): string {
  return `${dir}/activity-${port}${opts.rotated ? ".1" : ""}.jsonl`;
}

/** Reads the file left by a bridge on this port into `log`, then keeps the file up to date. */
export async function persistActivity(log: ActivityLog, opts: ActivityFileOptions): Promise<ActivityFile> {
  const path = activityFilePath(opts.dir, opts.port);
  const read = (file: string) => opts.fs.readTextFile(file).catch(() => "");
  const current = parseEntries(await read(path));
  const previous = parseEntries(await read(activityFilePath(opts.dir, opts.port, { rotated: true })));
  const restored = [...previous, ...current].slice(-log.capacity);
  if (restored.length > 0) log.restore(restored);
  // The entries after this seq are the current file's; the ones before went to the rotated one.
  let rotatedAt = log.lastSeq - current.length;
  // The last entry the current file holds: a rotation moves the file as written, so the new file
  // starts after it (not after lastSeq, which would drop the entries recorded since that write).
  let writtenSeq = log.lastSeq;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const write = async () => {
    timer = undefined;
    try {
      await opts.fs.mkdir(opts.dir, { recursive: true, mode: 0o700 });
      if (log.lastSeq - rotatedAt >= log.capacity) {
        await opts.fs.rename(path, activityFilePath(opts.dir, opts.port, { rotated: true })).catch(() => undefined);
        rotatedAt = writtenSeq;
      }
      const entries = log.entries(rotatedAt);
      const lines = entries.map((e) => JSON.stringify(e));
      await opts.fs.writeFileAtomic(path, lines.length === 0 ? "" : `${lines.join("\n")}\n`, { mode: FILE_MODE });
      writtenSeq = entries.at(-1)?.seq ?? writtenSeq;
    } catch (err) {
      opts.onError?.(`could not write ${path}: ${errorMessage(err)}`);
    }
  };
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    writing = writing.then(write);
    return writing;
  };
  const unsubscribe = log.subscribe(() => {
    if (!closed && timer === undefined) timer = setTimeout(() => void flush(), FLUSH_MS);
  });
  return {
    flush,
    async close() {
      closed = true;
      unsubscribe();
      await flush();
    },
  };
}

/** The lines that are entries; a torn or foreign line is skipped, never fatal. */
export function parseEntries(text: string): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isEntry(value)) out.push(value);
    } catch {
      // A line cut by a crash; the rest is still good.
    }
  }
  return out;
}

function isEntry(value: unknown): value is ActivityEntry {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  if (typeof e.seq !== "number" || typeof e.at !== "number") return false;
  if (e.kind === "call")
    return typeof e.tool === "string" && typeof e.session === "string" && typeof e.durationMs === "number" && typeof e.outcome === "string";
  return (
    e.kind === "event" && typeof e.source === "string" && typeof e.event === "string" && typeof e.detail === "object" && e.detail !== null
  );
}
