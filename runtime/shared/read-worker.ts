// Reads many small files off the main thread, for DirHandle.readFiles (src/ports/fs.ts). Each file
// read through node:fs/promises costs four thread-pool round trips (open, fstat, read, close) and
// their promise machinery; on a tree of 50,000 files that was most of the built-in search's time
// (about 10x slower than the same syscalls made synchronously). One worker thread makes the same
// syscalls synchronously, a batch of files per message, so the event loop is never blocked: it only
// waits for the batch's answer. (Two workers were no faster on a loaded 2-core machine.) The checks are the ones the per-file path makes: opened with the
// caller's flags (no symlink followed, a FIFO never waited on), fstat'd, read only when a regular
// file of at most maxBytes, and refused when it grew while read.
import { Worker } from "node:worker_threads";

/** A batch's answer stops once it holds this many bytes (the rest is asked for again), bounding memory. */
const BATCH_BYTES = 16 * 1024 * 1024;

// Plain CommonJS evaluated in the worker, so it needs no loader (tsx, vitest, a bundle) to start.
// A batch's files come back packed in one buffer (transferred, not copied), with [offset, length]
// per file (-1 for none): one transfer per batch instead of one per file.
const WORKER_SOURCE = `
const { openSync, fstatSync, readSync, closeSync } = require("node:fs");
const { parentPort } = require("node:worker_threads");
let pack = new Uint8Array(1 << 20);
let used = 0;
function room(n) {
  if (used + n <= pack.length) return;
  const bigger = new Uint8Array(Math.max(pack.length * 2, used + n));
  bigger.set(pack.subarray(0, used));
  pack = bigger;
}
function readOne(path, flags, maxBytes) {
  let fd;
  try {
    fd = openSync(path, flags);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return -1;
    // One byte more than the size: a file that grew since the fstat is caught.
    room(st.size + 1);
    let n = 0;
    for (let r; n < st.size + 1 && (r = readSync(fd, pack, used + n, st.size + 1 - n, n)) > 0; ) n += r;
    return n > st.size ? -1 : n;
  } catch {
    return -1;
  } finally {
    if (fd !== undefined) try { closeSync(fd); } catch {}
  }
}
parentPort.on("message", ({ id, paths, flags, maxBytes, budget }) => {
  pack = new Uint8Array(1 << 16);
  used = 0;
  const spans = [];
  for (const path of paths) {
    if (spans.length > 0 && used >= budget) break;
    const start = used;
    const n = readOne(path, flags, maxBytes);
    if (n >= 0) used += n;
    spans.push(n < 0 ? -1 : start, n);
  }
  parentPort.postMessage({ id, buffer: pack.buffer, spans }, [pack.buffer]);
});
`;

interface Reply {
  id: number;
  buffer: ArrayBuffer;
  /** [offset, length] per file; offset -1 when it was not read. */
  spans: number[];
}

interface Waiter {
  resolve(results: (Uint8Array | null)[]): void;
  reject(err: Error): void;
}

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, Waiter>();

function started(): Worker {
  if (worker !== undefined) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const waiter of waiting.values()) waiter.reject(err);
    waiting.clear();
  };
  w.on("message", (reply: Reply) => {
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    // Idle, it must not keep the process alive; busy, the caller is waiting on it.
    if (waiting.size === 0) w.unref();
    const results: (Uint8Array | null)[] = [];
    for (let i = 0; i < reply.spans.length; i += 2) {
      const offset = reply.spans[i] as number;
      results.push(offset < 0 ? null : new Uint8Array(reply.buffer, offset, reply.spans[i + 1]));
    }
    waiter?.resolve(results);
  });
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`the file-reading worker exited (code ${code})`)));
  w.unref();
  worker = w;
  return w;
}

function batch(paths: readonly string[], flags: number, maxBytes: number): Promise<(Uint8Array | null)[]> {
  return new Promise((resolve, reject) => {
    const w = started();
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, paths, flags, maxBytes, budget: BATCH_BYTES });
  });
}

/** The bytes of each path (opened with `flags`), or undefined for what is not a regular file of at most maxBytes. */
export async function readFilesInWorker(
  paths: readonly string[],
  opts: { flags: number; maxBytes: number },
): Promise<(Uint8Array | undefined)[]> {
  const { flags, maxBytes } = opts;
  const out: (Uint8Array | undefined)[] = [];
  while (out.length < paths.length) {
    const results = await batch(paths.slice(out.length), flags, maxBytes);
    for (const bytes of results) out.push(bytes ?? undefined);
  }
  return out;
}
