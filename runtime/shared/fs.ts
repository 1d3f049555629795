// The Fs of src/ports/fs.ts on node:fs/promises (Bun and Deno run it too). Every failure becomes a
// RuntimeError with the POSIX code (runtime/shared/errors.ts).
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Fs } from "../../src/ports/fs.ts";
import { openDirectory, openFile } from "./fs-handles.ts";
import { nodeWatch } from "./watch.ts";
import { toDirEntry, toFileStat } from "./fs-stat.ts";
import { translated } from "./errors.ts";

export function createNodeFs(): Fs {
  return {
    readFile: translated((path) => fsp.readFile(path)),
    readTextFile: translated((path) => fsp.readFile(path, "utf8")),
    writeFileAtomic: translated(writeFileAtomic),
    createExclusive: translated(createExclusive),
    stat: translated(async (path) => toFileStat(await fsp.stat(path))),
    lstat: translated(async (path) => toFileStat(await fsp.lstat(path))),
    realpath: translated((path) => fsp.realpath(path)),
    readdir: translated(async (path) => (await fsp.readdir(path, { withFileTypes: true })).map(toDirEntry)),
    mkdir: translated(async (path, opts) => {
      await fsp.mkdir(path, opts);
    }),
    chmod: translated((path, mode) => fsp.chmod(path, mode)),
    rm: translated((path, opts) => fsp.rm(path, opts)),
    rename: translated((from, to) => fsp.rename(from, to)),
    openFile,
    openDirectory,
    watch: nodeWatch,
  };
}

/** Temp file beside the target (same filesystem, so rename is atomic), then rename over it. */
async function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): Promise<void> {
  // Without an explicit mode, a replaced file keeps its own; a new one gets 0666 minus umask.
  const mode = opts.mode ?? (await existingMode(path));
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await fsp.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode ?? 0o666);
    try {
      await handle.writeFile(data);
      // An explicit or inherited mode must survive the umask.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, path);
  } catch (err) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** O_EXCL makes open fail with EEXIST on any existing name, a symlink included (open(2)). */
async function createExclusive(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const handle = await fsp.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode);
  try {
    await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.rm(path, { force: true }).catch(() => undefined);
    throw err;
  }
}
