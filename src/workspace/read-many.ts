// Reads many files of the workspace quickly and still through the jail, for the built-in search:
// each directory is opened checked once (through its parent's descriptor, directory-opener.ts), and
// its files are opened relative to that descriptor (no symlink followed, no FIFO waited on), a chunk
// of them per call of the runtime's DirHandle.readFiles (the Node runtime reads a chunk in a worker
// thread, so the event loop is not blocked and a file costs no thread-pool round trips), a few
// chunks ahead of the consumer so the reading overlaps the searching. Results come back in the
// order asked for, so a caller can stop early and the answer does not depend on timing. A file
// that cannot be read as a regular file comes back without bytes.
import type { DirHandle } from "../ports/fs.ts";
import type { JailedFs } from "../security/jail/checked-open.ts";
import { createDirectoryOpener } from "./directory-opener.ts";

export interface ReadManyOptions {
  maxBytes: number;
}

export interface ReadResult {
  path: string;
  bytes: Uint8Array | undefined;
}

/** Files of one directory read in one call. */
const CHUNK_FILES = 64;
/** Chunks asked for ahead of the consumer: also the most directories open at once (plus one). */
const CHUNKS_AHEAD = 8;

interface Chunk {
  dir: string;
  paths: string[];
  names: string[];
}

interface OpenDirectory {
  handle: Promise<DirHandle | undefined>;
  /** Chunks in flight that read through it; it is closed when none is left. */
  users: number;
}

export async function* readMany(jailed: JailedFs, paths: readonly string[], opts: ReadManyOptions): AsyncGenerator<ReadResult> {
  const chunks = chunksOf(paths);
  const dirs = new Map<string, OpenDirectory>();
  const closing: Promise<void>[] = [];
  const opener = createDirectoryOpener(jailed.fs, jailed.jail);
  const acquire = (dir: string): Promise<DirHandle | undefined> => {
    let open = dirs.get(dir);
    if (open === undefined) {
      open = { handle: opener.open(dir), users: 0 };
      dirs.set(dir, open);
    }
    open.users++;
    return open.handle;
  };
  // A directory no chunk in flight needs is closed at once, so a big tree never holds many
  // descriptors; one needed again later (its files interleave with a subdirectory's) is reopened.
  const release = (dir: string) => {
    const open = dirs.get(dir);
    if (open === undefined || --open.users > 0) return;
    dirs.delete(dir);
    closing.push(open.handle.then((h) => h?.close()).catch(() => undefined));
  };
  const readChunk = async (chunk: Chunk): Promise<(Uint8Array | undefined)[]> => {
    const handle = acquire(chunk.dir);
    try {
      const dir = await handle;
      if (dir === undefined) return chunk.names.map(() => undefined);
      const oneByOne = () => Promise.all(chunk.names.map((name) => readEntry(dir, name, opts.maxBytes)));
      // A runtime whose batch reader fails (its worker could not start) still reads, one by one.
      return dir.readFiles === undefined ? await oneByOne() : await dir.readFiles(chunk.names, opts.maxBytes).catch(oneByOne);
    } finally {
      release(chunk.dir);
    }
  };
  const pending: Promise<(Uint8Array | undefined)[]>[] = [];
  let next = 0;
  try {
    while (next < chunks.length || pending.length > 0) {
      while (pending.length < CHUNKS_AHEAD && next < chunks.length) pending.push(readChunk(chunks[next++] as Chunk));
      const chunk = chunks[next - pending.length] as Chunk;
      const results = await (pending.shift() as Promise<(Uint8Array | undefined)[]>);
      for (let i = 0; i < chunk.paths.length; i++) yield { path: chunk.paths[i] as string, bytes: results[i] };
    }
  } finally {
    await Promise.allSettled(pending);
    await Promise.allSettled(closing);
    await opener.close();
  }
}

/** Runs of consecutive paths in one directory, at most CHUNK_FILES long. */
function chunksOf(paths: readonly string[]): Chunk[] {
  const chunks: Chunk[] = [];
  let last: Chunk | undefined;
  for (const path of paths) {
    const cut = path.lastIndexOf("/");
    const dir = cut < 0 ? "." : path.slice(0, cut);
    if (last === undefined || last.dir !== dir || last.paths.length >= CHUNK_FILES) {
      last = { dir, paths: [], names: [] };
      chunks.push(last);
    }
    last.paths.push(path);
    last.names.push(path.slice(cut + 1));
  }
  return chunks;
}

/** One file, for a runtime without DirHandle.readFiles or whose batch read failed. */
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
