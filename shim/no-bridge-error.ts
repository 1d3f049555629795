// What the client is told when no bridge can be had: the answer to its initialize (and to every
// request after it), the one place a user sees, since Claude Code prints a stdio server's error
// in `claude mcp list` ("✘ Failed to connect — -32000: …") but never its stderr.
// One line: why, then what to do. It uses no word of the server's own command line ("shim", its
// flags): Claude Code redacts those wherever they appear in a server's error ("[redacted]").
import { statSync } from "node:fs";
import type { SpawnState } from "./spawn-bridge.ts";
import { ShimErrorCode, type ShimError } from "./messages.ts";

interface NoBridgeFacts {
  /** The directory the shim serves (locks must contain it). */
  workspace: string;
  /** Where a bridge would be started. */
  root: string;
  spawning: boolean;
  spawn: SpawnState;
  /** The last failed connection, e.g. "port 4100: ECONNREFUSED". */
  lastProblem: string | undefined;
  waitedMs: number;
  lockDir: string;
}

const RECONNECT = "then reconnect this server (/mcp in Claude Code); `claude-ide-bridge doctor` checks the setup";

export function noBridgeError(facts: NoBridgeFacts): ShimError {
  return {
    code: ShimErrorCode.bridgeUnavailable,
    message: `claude-ide-bridge: ${describe(facts)}`,
    reason: "bridge_unreachable",
    data: dataOf(facts),
  };
}

function describe(f: NoBridgeFacts): string {
  const waited = `${Math.round(f.waitedMs / 100) / 10} s`;
  // The path itself may show as "[redacted]" (it is on the server's command line), so the words
  // around it must say what is wrong on their own.
  if (!isDirectory(f.workspace)) {
    return `the workspace directory this server was given (${f.workspace}) does not exist or is not a directory; correct the workspace path in this server's entry (.mcp.json, or claude mcp remove and add it again), ${RECONNECT}.`;
  }
  if (f.spawning && f.spawn.kind === "failed") {
    const { failure } = f.spawn;
    const tail = lastLines(failure.logTail, 3);
    // An empty log says nothing: point to it only when the bridge wrote there.
    const log = tail && failure.logPath ? ` (log: ${failure.logPath})` : "";
    return `the bridge started for ${f.root} ${failure.ended}${tail ? `: ${tail}` : ""}${log}; fix that, ${RECONNECT}.`;
  }
  if (f.lastProblem !== undefined) {
    return `a bridge for ${f.workspace} is registered but cannot be reached (${f.lastProblem}) after ${waited}; restart it (claude-ide-bridge stop, then claude-ide-bridge --workspace ${f.root}), ${RECONNECT}.`;
  }
  if (!f.spawning) {
    return `no bridge serves ${f.workspace} (no lock in ${f.lockDir} after ${waited}) and this server may not start one (no-spawn); start one with \`claude-ide-bridge --workspace ${f.root}\` or let this server start it, ${RECONNECT}.`;
  }
  switch (f.spawn.kind) {
    case "started":
      return `the bridge started for ${f.root}${f.spawn.pid === undefined ? "" : ` (pid ${f.spawn.pid})`} wrote no lock file in ${waited}${f.spawn.logPath ? ` (log: ${f.spawn.logPath})` : ""}; ${RECONNECT}.`;
    case "another-shim":
      return `another server is starting the bridge for ${f.root}, and its lock file did not appear in ${waited}; ${RECONNECT}.`;
    default:
      return `no bridge serves ${f.workspace} after ${waited}; start one with \`claude-ide-bridge --workspace ${f.root}\`, ${RECONNECT}.`;
  }
}

function dataOf(f: NoBridgeFacts): Record<string, unknown> {
  const data: Record<string, unknown> = { workspace: f.workspace, root: f.root, spawn: f.spawning, lockDir: f.lockDir };
  if (f.spawn.kind === "failed") Object.assign(data, { bridgeLog: f.spawn.failure.logPath, bridgeLogTail: f.spawn.failure.logTail });
  return data;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The last `n` non-empty lines, joined on one line (the client prints one line per server). */
function lastLines(text: string, n: number): string {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .slice(-n)
    .join(" | ");
}
