// Finding the bridge from the IDE lock files `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/<port>.lock`
// (protocol.md A1) by the rules every client shares (src/lock/lock-selection.ts: live, WebSocket
// with a token, a folder containing the directory, bridges first, the port we were on, newest),
// read through node:fs, and watching the directory for changes.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, watch, type FSWatcher } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { readLockEntries, type LockDirReader } from "../src/lock/lock-dir.ts";
import { ideLockDir, LOCK_FILE_NAME } from "../src/lock/lock-fields.ts";
import type { ProcessProbe } from "../src/lock/lock-liveness.ts";
import { parseLockPlain } from "../src/lock/lock-parse-plain.ts";
import { selectLock, type SelectOptions } from "../src/lock/lock-selection.ts";
import { processAlive } from "./process-alive.ts";

export interface Target {
  port: number;
  token: string;
  /** Whether the token came from a lock file (so a 401 may mean the lock changed under us). */
  fromLock: boolean;
  isBridge: boolean;
  pid?: number;
}

export function lockDirectory(env: NodeJS.ProcessEnv): string {
  return ideLockDir(env.CLAUDE_CONFIG_DIR, homedir());
}

/** The directory the shim serves, as locks name it: its realpath, when it exists. */
export function realDirectory(dir: string): string {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

/** Sync calls: a handful of small files, and the shim has nothing else to do meanwhile. */
const nodeLockReader: LockDirReader = {
  async names(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  async read(path) {
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) return { kind: "not-a-file", mtimeMs: stat.mtimeMs };
      return { kind: "file", text: readFileSync(path, "utf8"), mtimeMs: stat.mtimeMs };
    } catch {
      // Gone meanwhile, or unreadable: either way not a lock we can use.
      return { kind: "missing" };
    }
  },
};

const platform = process.platform;
const probe: ProcessProbe = {
  processAlive,
  platform: platform === "linux" || platform === "darwin" || platform === "win32" ? platform : "other",
};

interface FindOptions extends SelectOptions {
  /** The lock directory. */
  dir: string;
}

export async function findTarget(opts: FindOptions): Promise<Target | undefined> {
  const best = selectLock(await readLockEntries(nodeLockReader, opts.dir, { parse: parseLockPlain }), opts, probe);
  if (best === undefined) return undefined;
  const target: Target = { port: best.port, token: best.lock.authToken, fromLock: true, isBridge: best.lock.isBridge };
  if (best.lock.pid !== undefined) target.pid = best.lock.pid;
  return target;
}

/**
 * Calls `onChange` when a `.lock` file in `dir` appears, changes or goes (debounced by 10 ms; a
 * lock read half-written is skipped, and its completing write is another event). fs.watch
 * misses events on some systems and needs the directory to exist, so a poll compares the
 * directory's locks (names and mtimes) every `pollMs` as well.
 */
export function watchLocks(dir: string, onChange: () => void, opts: { pollMs: number }): () => void {
  let watcher: FSWatcher | undefined;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let signature = lockSignature(dir);
  const fire = () => {
    if (debounce) return;
    debounce = setTimeout(() => {
      debounce = undefined;
      signature = lockSignature(dir);
      onChange();
    }, 10);
  };
  const ensureWatcher = () => {
    if (watcher) return;
    try {
      watcher = watch(dir, (_event, name) => {
        // Checkpoints and temporary files change here too; only locks matter.
        if (name === null || LOCK_FILE_NAME.test(String(name))) fire();
      });
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // not there yet: the poll tries again
    }
  };
  ensureWatcher();
  const poll = setInterval(() => {
    ensureWatcher();
    const now = lockSignature(dir);
    if (now !== signature) {
      signature = now;
      onChange();
    }
  }, opts.pollMs);
  return () => {
    clearInterval(poll);
    if (debounce) clearTimeout(debounce);
    watcher?.close();
  };
}

function lockSignature(dir: string): string {
  try {
    return readdirSync(dir)
      .filter((name) => LOCK_FILE_NAME.test(name))
      .sort()
      .map((name) => {
        try {
          return `${name}@${statSync(join(dir, name)).mtimeMs}`;
        } catch {
          return name;
        }
      })
      .join("|");
  } catch {
    return "";
  }
}
