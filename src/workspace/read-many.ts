// Reads many files of the workspace quickly and still through the jail, for the built-in search:
// each directory is resolved and opened checked once, and its files are opened relative to that
// descriptor (no symlink followed, no FIFO waited on), several at a time so the OS's latency
// overlaps. Results come back in the order asked for, so a caller can stop early and the answer
// does not depend on timing. A file that cannot be read as a regular file comes back without bytes.
import type { DirHandle, Fs } from "../runtime.ts";
import { openCheckedDirectory } from "../security/checked-open.ts";
import type { Workspace } from "../security/paths.ts";

export interface ReadManyOptions {
  maxBytes: number;
  /** Files in flight at once. */
  concurrency?: number;
}

export interface ReadResult {
  path: string;
  bytes: Uint8Array | undefined;
}

const DEFAULT_CONCURRENCY = 16;
/** closeDone keeps the directories of the last LIVE_SPAN paths open: more than any window. */
const LIVE_SPAN = 64;

export async function* readMany(fs: Fs, jail: Workspace, paths: readonly string[], opts: ReadManyOptions): AsyncGenerator<ReadResult> {
  const window = Math.min(LIVE_SPAN, Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY));
  const dirs = new Map<string, Promise<DirHandle | undefined>>();
  const dirOf = (path: string) => {
    const cut = path.lastIndexOf("/");
    const dir = cut < 0 ? "." : path.slice(0, cut);
    let handle = dirs.get(dir);
    if (handle === undefined) {
      handle = jail.resolve(dir).then(
        (real) => openCheckedDirectory(fs, jail, real, dir).then((d) => (d.stat.isDirectory ? d.handle : undefined), () => undefined),
        () => undefined,
      );
      dirs.set(dir, handle);
    }
    return handle;
  };
  const read = async (path: string): Promise<ReadResult> => {
    const dir = await dirOf(path);
    const name = path.slice(path.lastIndexOf("/") + 1);
    return { path, bytes: dir === undefined ? undefined : await readEntry(dir, name, opts.maxBytes) };
  };
  const pending: Promise<ReadResult>[] = [];
  let next = 0;
  try {
    while (next < paths.length || pending.length > 0) {
      while (pending.length < window && next < paths.length) pending.push(read(paths[next++] as string));
      yield await (pending.shift() as Promise<ReadResult>);
      // A directory no later path needs is closed now, so a big tree never holds many descriptors.
      closeDone(dirs, paths, next);
    }
  } finally {
    await Promise.allSettled(pending);
    for (const handle of dirs.values()) await handle.then((h) => h?.close()).catch(() => undefined);
  }
}

async function readEntry(dir: DirHandle, name: string, maxBytes: number): Promise<Uint8Array | undefined> {
  try {
    const file = await dir.openFile(name);
    try {
      const st = await file.stat();
      if (!st.isFile || st.size > maxBytes) return undefined;
      const bytes = await file.read(0, st.size + 1);
      return bytes.length > st.size ? undefined : bytes;
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}

/** Closes the handles of directories before the one of `paths[upTo - 1]` (paths are sorted, so grouped). */
function closeDone(dirs: Map<string, Promise<DirHandle | undefined>>, paths: readonly string[], upTo: number): void {
  if (dirs.size <= 8) return;
  const live = new Set(paths.slice(Math.max(0, upTo - LIVE_SPAN), upTo + 1).map((p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".")));
  for (const [dir, handle] of dirs) {
    if (live.has(dir)) continue;
    dirs.delete(dir);
    void handle.then((h) => h?.close()).catch(() => undefined);
  }
}
