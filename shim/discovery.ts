// Finding the bridge from the IDE lock files `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/<port>.lock`
// (protocol.md A1): live owners only; the ones whose workspace folders contain the directory we
// serve; bridges (isBridge) before other IDEs; the port we were on before, then the newest.
import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { homedir } from "node:os";
import { join, relative, isAbsolute } from "node:path";
import process from "node:process";

export interface Target {
  port: number;
  token: string;
  /** Whether the token came from a lock file (so a 401 may mean the lock changed under us). */
  fromLock: boolean;
  isBridge: boolean;
  pid?: number;
}

export function lockDirectory(env: NodeJS.ProcessEnv): string {
  const configDir = env.CLAUDE_CONFIG_DIR;
  return join(configDir !== undefined && configDir !== "" ? configDir : join(homedir(), ".claude"), "ide");
}

interface LockInfo {
  port: number;
  token: string;
  pid: number | undefined;
  isBridge: boolean;
  folders: string[];
  mtimeMs: number;
}

/** Reads one lock; undefined when it is unreadable, not a WebSocket lock, or its owner is gone. */
export function readLockFile(dir: string, port: number): LockInfo | undefined {
  const path = join(dir, `${port}.lock`);
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    const json: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof json !== "object" || json === null) return undefined;
    const lock = json as Record<string, unknown>;
    if (lock.transport !== undefined && lock.transport !== "ws") return undefined;
    if (typeof lock.authToken !== "string" || lock.authToken === "") return undefined;
    const pid = typeof lock.pid === "number" ? lock.pid : undefined;
    // A Windows IDE's pid means nothing inside WSL, as Claude Code itself reasons.
    if (pid !== undefined && lock.runningInWindows !== true && !processAlive(pid)) return undefined;
    const folders = Array.isArray(lock.workspaceFolders) ? lock.workspaceFolders.filter((f): f is string => typeof f === "string") : [];
    return { port, token: lock.authToken, pid, isBridge: lock.isBridge === true, folders, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

export interface FindOptions {
  dir: string;
  /** The directory to serve (realpath); a lock must list a folder containing it. */
  cwd: string;
  /** Only this port (its lock's token, workspace not checked). */
  port?: number;
  /** Preferred when still valid: our session lives there. */
  previousPort?: number;
}

export function findTarget(opts: FindOptions): Target | undefined {
  if (opts.port !== undefined) {
    const lock = readLockFile(opts.dir, opts.port);
    return lock && toTarget(lock);
  }
  let names: string[];
  try {
    names = readdirSync(opts.dir);
  } catch {
    return undefined;
  }
  const candidates: LockInfo[] = [];
  for (const name of names) {
    const m = /^(\d+)\.lock$/.exec(name);
    if (!m) continue;
    const lock = readLockFile(opts.dir, Number(m[1]));
    if (lock && lock.folders.some((folder) => contains(folder, opts.cwd))) candidates.push(lock);
  }
  candidates.sort(
    (a, b) =>
      Number(b.isBridge) - Number(a.isBridge) ||
      Number(b.port === opts.previousPort) - Number(a.port === opts.previousPort) ||
      b.mtimeMs - a.mtimeMs,
  );
  const best = candidates[0];
  return best && toTarget(best);
}

function toTarget(lock: LockInfo): Target {
  const target: Target = { port: lock.port, token: lock.token, fromLock: true, isBridge: lock.isBridge };
  if (lock.pid !== undefined) target.pid = lock.pid;
  return target;
}

/** `dir` equals `folder` or lies inside it. */
export function contains(folder: string, dir: string): boolean {
  const rel = relative(folder, dir);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, owned by someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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
        if (name === null || String(name).endsWith(".lock")) fire();
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
      .filter((name) => name.endsWith(".lock"))
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
