// Starting a bridge when none serves the project (on by default, so adding the shim is enough):
// detached so it outlives this shim (other shims and Claude Code sessions use it too), rooted at
// the project, logging to a file in the temp dir, and exiting by itself after `--idle-timeout`
// without a session. A marker file in the lock directory (O_EXCL, 30 s) keeps shims that start
// together from starting one bridge each. A bridge that exits before anyone connected is reported
// with the end of its log, so the client hears why at once instead of waiting out its connect
// timeout.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { Invocation } from "../src/cli/launcher.ts";
import { SPAWN_MARKER_TTL_MS as MARKER_TTL_MS, spawnMarkerName } from "../src/lock/lock-fields.ts";
import type { ShimLog } from "./log.ts";

const LOG_TAIL_BYTES = 4096;

interface SpawnerOptions {
  /** The project root the bridge serves. */
  root: string;
  lockDir: string;
  /** How to run this program again. */
  self: Invocation;
  /** Extra bridge flags (after `--` on the shim's command line). */
  bridgeArgs: string[];
  /** --idle-timeout for the bridge, unless bridgeArgs set it; 0 leaves the bridge's default (never). */
  idleTimeoutMs: number;
  log: ShimLog;
  /**
   * Whether a bridge for the project has a lock now. Asked once the marker is ours: the shim that
   * started a bridge lifts its marker when it connects, so a shim that looked for a lock just before
   * that bridge wrote one would otherwise claim the free marker and start a second bridge.
   */
  bridgeRunning(): Promise<boolean>;
  /** The bridge this shim started exited before the shim connected to a bridge. */
  onEarlyExit(failure: SpawnFailure): void;
}

interface SpawnFailure {
  pid: number | undefined;
  /** Exit code, or a description of how it ended (a signal, a failed exec). */
  ended: string;
  logPath: string | undefined;
  /** The last lines the bridge logged (empty when it logged nothing). */
  logTail: string;
}

export type SpawnState =
  | { kind: "none" }
  | { kind: "started"; pid: number | undefined; logPath: string | undefined }
  | { kind: "another-shim" }
  | { kind: "failed"; failure: SpawnFailure };

interface Spawner {
  /** Starts a bridge, at most once per 30 s, not while another shim does, and not when one has appeared. */
  ensure(): Promise<void>;
  readonly state: SpawnState;
  /** The shim reached a bridge: a later exit of ours is no start-up failure. */
  connected(): void;
}

export function createSpawner(opts: SpawnerOptions): Spawner {
  const key = createHash("sha256").update(opts.root).digest("hex").slice(0, 16);
  const marker = join(opts.lockDir, spawnMarkerName(key));
  let last = 0;
  let connected = false;
  let ownMarker = false;
  let state: SpawnState = { kind: "none" };
  const fail = (failure: SpawnFailure) => {
    // Another shim may try at once: this attempt is over.
    if (ownMarker) removeQuietly(marker);
    ownMarker = false;
    state = { kind: "failed", failure };
    if (!connected) opts.onEarlyExit(failure);
  };
  return {
    get state() {
      return state;
    },
    connected: () => {
      connected = true;
      // The bridge is up: a shim that starts after it dies need not wait out the marker.
      if (ownMarker) removeQuietly(marker);
      ownMarker = false;
    },
    ensure: async () => {
      if (Date.now() - last < MARKER_TTL_MS) return;
      last = Date.now();
      if (!claimMarker(opts.lockDir, marker)) {
        if (state.kind !== "another-shim") opts.log.info("another shim is starting a bridge for this project; waiting for its lock file");
        state = { kind: "another-shim" };
        return;
      }
      ownMarker = true;
      if (await opts.bridgeRunning().catch(() => false)) {
        // The lock watch connects to it; the marker would only hold back a shim that finds it gone.
        removeQuietly(marker);
        ownMarker = false;
        last = 0;
        opts.log.info("a bridge for this project appeared; not starting another");
        return;
      }
      // Node reports a missing working directory as the program missing ("spawn /usr/bin/node
      // ENOENT"): check the directory first and name it.
      const notDirectory = directoryProblem(opts.root);
      if (notDirectory !== undefined) {
        fail({ pid: undefined, ended: `could not be started: ${opts.root} ${notDirectory}`, logPath: undefined, logTail: "" });
        return;
      }
      const log = openLog(join(tmpdir(), `claude-ide-bridge-${key}.log`));
      const idle = opts.idleTimeoutMs > 0 && !opts.bridgeArgs.some((a) => a === "--idle-timeout" || a.startsWith("--idle-timeout="));
      const args = [
        ...opts.self.args,
        "--workspace",
        opts.root,
        "--port",
        "0",
        ...(idle ? ["--idle-timeout", String(opts.idleTimeoutMs)] : []),
        ...opts.bridgeArgs,
      ];
      try {
        const child = spawn(opts.self.command, args, {
          cwd: opts.root,
          detached: true,
          stdio: ["ignore", "ignore", log?.fd ?? "ignore"],
          env: process.env,
          windowsHide: true,
        });
        const failure = (ended: string): SpawnFailure => ({
          pid: child.pid,
          ended,
          logPath: log?.path,
          logTail: log ? readTail(log.path, log.startOffset) : "",
        });
        child.once("error", (err: NodeJS.ErrnoException) =>
          fail(
            failure(
              err.code === "ENOENT"
                ? `could not be started: the program ${opts.self.command} was not found`
                : `could not be started (${err.message})`,
            ),
          ),
        );
        child.once("exit", (code, signal) => {
          if (!connected) fail(failure(signal !== null ? `was killed by ${signal}` : `exited with code ${code}`));
        });
        child.unref();
        // Without a pid the start failed, and the error event above says how.
        if (child.pid !== undefined) {
          state = { kind: "started", pid: child.pid, logPath: log?.path };
          opts.log.info(`started a bridge for ${opts.root} (pid ${child.pid}, log ${log?.path ?? "none"})`);
        }
      } finally {
        if (log) closeSync(log.fd);
      }
    },
  };
}

/** Why `dir` cannot be a bridge's working directory, or undefined when it can. */
function directoryProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : "is not a directory";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be used (${(err as Error).message})`;
  }
}

function openLog(path: string): { fd: number; path: string; startOffset: number } | undefined {
  try {
    const fd = openSync(path, "a", 0o600);
    return { fd, path, startOffset: fstatSync(fd).size };
  } catch {
    return undefined;
  }
}

/** What the bridge wrote to its log since `from`, at most the last 4 KB, whole lines. */
function readTail(path: string, from: number): string {
  try {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      const start = Math.max(from, size - LOG_TAIL_BYTES);
      const buffer = Buffer.alloc(Math.max(0, size - start));
      readSync(fd, buffer, 0, buffer.length, start);
      const text = buffer.toString("utf8");
      return (start > from ? text.slice(text.indexOf("\n") + 1) : text).trim();
    } finally {
      closeSync(fd);
    }
  } catch {
    return "";
  }
}

function claimMarker(dir: string, marker: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Reported by the open below if it matters.
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(marker, "wx", 0o600));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") return true; // cannot coordinate: start anyway
      try {
        if (Date.now() - statSync(marker).mtimeMs < MARKER_TTL_MS) return false;
        unlinkSync(marker);
      } catch {
        // Removed meanwhile: try again.
      }
    }
  }
  return false;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}
