// Finds the bridge for this VS Code window: the claudeIdeBridge.port setting (or the
// CLAUDE_IDE_BRIDGE_PORT variable) names one; otherwise the bridges' lock files in
// $CLAUDE_CONFIG_DIR/ide (~/.claude/ide), the same files Claude Code reads. A bridge serves this
// window when one of its folders equals, contains or lies inside one of the window's folders; the
// closest match wins, then the newest lock. Locks of dead processes and of other IDEs are skipped.
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ideLockDir, lockFilePort } from "../../src/lock/lock-fields.ts";
import { parseLockPlain } from "../../src/lock/lock-parse-plain.ts";

export interface BridgeTarget {
  port: number;
  token: string;
  lockPath: string;
  workspace: string;
}

export function lockDirectory(setting: string): string {
  return setting !== "" ? setting : ideLockDir(process.env.CLAUDE_CONFIG_DIR, homedir());
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/** 3: the same folder; 2: the bridge's folder holds the window's; 1: the window's holds the bridge's. */
function closeness(bridgeFolders: readonly string[], windowFolders: readonly string[]): number {
  let best = 0;
  for (const b of bridgeFolders)
    for (const w of windowFolders) best = Math.max(best, b === w ? 3 : inside(w, b) ? 2 : inside(b, w) ? 1 : 0);
  return best;
}

export async function findBridge(opts: {
  lockDir: string;
  windowFolders: readonly string[];
  port?: number;
}): Promise<BridgeTarget | undefined> {
  const names = await readdir(opts.lockDir).catch(() => [] as string[]);
  const found: (BridgeTarget & { score: number; mtime: number })[] = [];
  for (const name of names) {
    const port = lockFilePort(name);
    if (port === undefined || (opts.port !== undefined && opts.port !== port)) continue;
    const path = join(opts.lockDir, name);
    const [text, info] = await Promise.all([readFile(path, "utf8").catch(() => undefined), stat(path).catch(() => undefined)]);
    const lock = text === undefined ? undefined : parseLockPlain(text);
    if (lock === undefined || info === undefined || !lock.isBridge || lock.authToken === undefined) continue;
    if (lock.pid !== undefined && !alive(lock.pid)) continue;
    const folders = lock.workspaceFolders.length > 0 ? lock.workspaceFolders : lock.workspace !== undefined ? [lock.workspace] : [];
    const score = opts.port !== undefined ? 3 : closeness(folders, opts.windowFolders);
    if (score === 0) continue;
    found.push({ port, token: lock.authToken, lockPath: path, workspace: folders[0] ?? "", score, mtime: info.mtimeMs });
  }
  found.sort((a, b) => b.score - a.score || b.mtime - a.mtime);
  const best = found[0];
  return best === undefined ? undefined : { port: best.port, token: best.token, lockPath: best.lockPath, workspace: best.workspace };
}
