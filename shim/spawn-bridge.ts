// `shim --spawn`: when no bridge serves the workspace, start one, detached so it outlives this
// shim (other shims and Claude Code sessions use it too), logging to a file in the temp dir.
// A marker file in the lock directory (O_EXCL, 30 s) keeps shims that start together from
// starting one bridge each.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { ShimLog } from "./log.ts";

const MARKER_TTL_MS = 30_000;

export interface SpawnerOptions {
  workspace: string;
  lockDir: string;
  /** How to run this program again: the executable and the arguments before ours. */
  self: { command: string; args: string[] };
  /** Extra bridge flags (after `--` on the shim's command line). */
  bridgeArgs: string[];
  log: ShimLog;
}

/** Returns a function that starts a bridge at most once per 30 s (and not while another shim does). */
export function createSpawner(opts: SpawnerOptions): () => void {
  const key = createHash("sha256").update(opts.workspace).digest("hex").slice(0, 16);
  const marker = join(opts.lockDir, `spawn-${key}.pending`);
  let last = 0;
  return () => {
    if (Date.now() - last < MARKER_TTL_MS) return;
    last = Date.now();
    if (!claimMarker(opts.lockDir, marker)) {
      opts.log.info("another shim is starting a bridge for this workspace; waiting for its lock file");
      return;
    }
    const logPath = join(tmpdir(), `claude-ide-bridge-${key}.log`);
    let fd: number | "ignore" = "ignore";
    try {
      fd = openSync(logPath, "a", 0o600);
    } catch {
      fd = "ignore";
    }
    const args = [...opts.self.args, "--workspace", opts.workspace, "--port", "0", ...opts.bridgeArgs];
    try {
      const child = spawn(opts.self.command, args, {
        cwd: opts.workspace,
        detached: true,
        stdio: ["ignore", "ignore", fd],
        env: process.env,
        windowsHide: true,
      });
      child.on("error", (err) => opts.log.error(`could not start a bridge: ${err.message}`));
      child.unref();
      opts.log.info(`started a bridge for ${opts.workspace} (pid ${child.pid ?? "?"}, log ${fd === "ignore" ? "none" : logPath})`);
    } finally {
      if (typeof fd === "number") closeSync(fd);
    }
  };
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
