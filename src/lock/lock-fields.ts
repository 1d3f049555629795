// The IDE lock file as every reader sees it: `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/<port>.lock`
// (protocol.md A1). Field names are Claude Code's. Runtime-free, so the shim shares it.
import { join } from "../lib/paths/posix-path.ts";

/**
 * One lock's fields, read leniently: the directory is shared with real IDEs (VS Code, JetBrains,
 * Neovim, Emacs), which write more or fewer fields, so a field of the wrong type counts as absent
 * rather than making the whole lock unreadable. Every key is always present.
 */
export interface IdeLock {
  /** A positive integer; anything else (0, negative, fractional, a string, missing) is undefined. */
  pid: number | undefined;
  workspace: string | undefined;
  /** The string entries of the array; other entries, or a non-array, are left out. */
  workspaceFolders: string[];
  ideName: string | undefined;
  transport: string | undefined;
  /** Non-empty, else undefined. */
  authToken: string | undefined;
  /** Read as `=== true`, as Claude Code reads runningInWindows. */
  isBridge: boolean;
  runningInWindows: boolean;
  /** Finite, else undefined. */
  startedAt: number | undefined;
  nonce: string | undefined;
}

/** Parses a lock file's text; undefined when it is not a JSON object. */
export type LockParser = (text: string) => IdeLock | undefined;

/** JSON.parse, or undefined for text that is not JSON (no JSON text parses to undefined). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `<port>.lock`, nothing else: checkpoints, spawn markers and temporary files share the directory. */
export const LOCK_FILE_NAME = /^(\d+)\.lock$/;

/** The port a lock file's name gives, or undefined when the name is not a lock's. */
export function lockFilePort(name: string): number | undefined {
  const match = LOCK_FILE_NAME.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** `${CLAUDE_CONFIG_DIR:-~/.claude}/ide`; an empty CLAUDE_CONFIG_DIR counts as unset, as in a shell. */
export function ideLockDir(configDir: string | undefined, home: string): string {
  return join(configDir !== undefined && configDir !== "" ? configDir : join(home, ".claude"), "ide");
}

/**
 * A shim starting a bridge claims `spawn-<key>.pending` in the lock directory (key: 16 hex digits of
 * the project's hash) for this long, so shims that start together start one bridge, and a command
 * run right after waits for that bridge's lock (src/cli/starting-bridge.ts).
 */
export const SPAWN_MARKER_TTL_MS = 30_000;
export const SPAWN_MARKER = /^spawn-[0-9a-f]{16}\.pending$/;
export function spawnMarkerName(key: string): string {
  return `spawn-${key}.pending`;
}
