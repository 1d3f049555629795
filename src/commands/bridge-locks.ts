// The lock files as the CLI commands see them: every `<port>.lock` with the fields a command
// needs, whether its process is alive, and the choice of "the bridge for this directory" by the
// same rules as the shim (live, workspace contains the directory, bridges first, newest first).
import type { Runtime } from "../runtime.ts";
import { lockDir } from "../lock/lock-file.ts";
import { join, normalize } from "../security/posix-path.ts";

export interface BridgeLock {
  port: number;
  path: string;
  pid: number | undefined;
  alive: boolean;
  isBridge: boolean;
  ideName: string | undefined;
  workspace: string | undefined;
  workspaceFolders: string[];
  authToken: string | undefined;
  startedAt: number | undefined;
  mtimeMs: number;
}

export async function listLocks(runtime: Runtime): Promise<BridgeLock[]> {
  const dir = lockDir(runtime);
  let entries;
  try {
    entries = await runtime.fs.readdir(dir);
  } catch {
    return [];
  }
  const locks: BridgeLock[] = [];
  for (const entry of entries) {
    const m = /^(\d+)\.lock$/.exec(entry.name);
    if (!m || !entry.isFile) continue;
    const lock = await readBridgeLock(runtime, join(dir, entry.name), Number(m[1]));
    if (lock) locks.push(lock);
  }
  return locks.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

async function readBridgeLock(runtime: Runtime, path: string, port: number): Promise<BridgeLock | undefined> {
  let json: unknown;
  let mtimeMs: number;
  try {
    mtimeMs = (await runtime.fs.stat(path)).mtimeMs;
    json = JSON.parse(await runtime.fs.readTextFile(path));
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const lock = json as Record<string, unknown>;
  const pid = typeof lock.pid === "number" && Number.isInteger(lock.pid) ? lock.pid : undefined;
  const inWsl = lock.runningInWindows === true && runtime.platform !== "win32";
  return {
    port,
    path,
    pid,
    alive: pid === undefined || inWsl || runtime.processAlive(pid),
    isBridge: lock.isBridge === true,
    ideName: typeof lock.ideName === "string" ? lock.ideName : undefined,
    workspace: typeof lock.workspace === "string" ? lock.workspace : undefined,
    workspaceFolders: Array.isArray(lock.workspaceFolders) ? lock.workspaceFolders.filter((f): f is string => typeof f === "string") : [],
    authToken: typeof lock.authToken === "string" && lock.authToken !== "" ? lock.authToken : undefined,
    startedAt: typeof lock.startedAt === "number" ? lock.startedAt : undefined,
    mtimeMs,
  };
}

/** `dir` equals `folder` or lies inside it (both absolute). */
export function folderContains(folder: string, dir: string): boolean {
  const f = normalize(folder);
  const d = normalize(dir);
  return d === f || d.startsWith(f === "/" ? "/" : `${f}/`);
}

/** The lock the shim would connect to for `cwd`, or the one of `port`. */
export async function chooseLock(runtime: Runtime, opts: { port?: number; cwd: string }): Promise<BridgeLock | undefined> {
  const locks = (await listLocks(runtime)).filter((l) => l.alive && l.authToken !== undefined);
  if (opts.port !== undefined) return locks.find((l) => l.port === opts.port);
  const cwd = await runtime.fs.realpath(opts.cwd).catch(() => opts.cwd);
  const matching = locks.filter((l) => l.workspaceFolders.some((f) => folderContains(f, cwd)));
  // listLocks is newest first and sort is stable: bridges first, newest first within each kind.
  return matching.sort((a, b) => Number(b.isBridge) - Number(a.isBridge))[0];
}
