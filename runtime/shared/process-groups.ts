// Process trees of children spawned with `processGroup: true` (src/ports/spawn.ts, SpawnOptions), on
// every runtime: signalling a whole tree, and ending each tree still running when this process
// exits. Such a tree is outside our process group, so neither the terminal's Ctrl-C nor its hangup
// reaches it; without the exit hook it would outlive the bridge as an orphan.
//
// A tree is more than its process group: a job that calls setsid(2) (`setsid server &`, a daemon's
// double fork) leaves the group and the session, and reparents to init, so neither the group nor
// the parent links find it. What it keeps is its environment: every such child gets a marker
// variable (CLAUDE_IDE_BRIDGE_TREE=<this bridge>-<n>) that its descendants inherit, and ending a
// tree also ends every process whose initial environment (/proc/<pid>/environ) carries its marker.
// A SIGKILL first stops them all (SIGSTOP, scanning again until no new one appears), so a tree that
// forks while it is being ended cannot outrun the scan. What escapes: a process that clears its
// environment before exec (`env -i`), and everything on systems without /proc (macOS), where only
// the group is ended. No cgroup is needed, and none is available to an unprivileged bridge.
import { readdirSync, readFileSync } from "node:fs";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { Child, KillSignal } from "../../src/ports/spawn.ts";
import { nodeErrorCode, toRuntimeError } from "./errors.ts";

const TREE_MARKER_VARIABLE = "CLAUDE_IDE_BRIDGE_TREE";
/** This bridge process's part of every marker, so the exit hook can find all of its trees. */
const INSTANCE = `${process.pid}.${crypto.randomUUID().slice(0, 8)}`;
let treeCount = 0;
/** Rounds of stop-and-scan before the SIGKILL: a tree forking faster than that is out of reach. */
const FREEZE_ROUNDS = 8;

const liveLeaders = new Map<number, string>();
let exitHookInstalled = false;

/** A fresh marker and the environment carrying it, for a processGroup child. */
export function markTree(env: Readonly<Record<string, string | undefined>>): { marker: string; env: Record<string, string> } {
  const marker = `${INSTANCE}-${++treeCount}`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out[TREE_MARKER_VARIABLE] = marker;
  return { marker, env: out };
}

/**
 * Remembers a group leader until `exited` settles, to end its tree if we exit first. The exit hook
 * ends every tree of this bridge by its markers, those of leaders that already exited included.
 */
export function trackGroup(pid: number, tree: { exited: Promise<unknown>; marker: string }): void {
  const { exited, marker } = tree;
  liveLeaders.set(pid, marker);
  void exited.finally(() => liveLeaders.delete(pid)).catch(() => {});
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // "exit" runs on process.exit() (runtime/shared/shutdown.ts) and when the event loop empties; only
  // synchronous work can happen here, which a signal and a /proc scan are.
  process.once("exit", () => {
    for (const leader of liveLeaders.keys()) quietly(() => signalGroup(leader, "SIGTERM"));
    quietly(() => signalMarked(`${INSTANCE}-`, "SIGKILL"));
  });
}

/** kill(-pid): every process of the group. A group already gone is not an error. */
function signalGroup(pid: number, signal: KillSignal): void {
  try {
    // Windows has no process groups to signal; its detached child is killed alone.
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch (err) {
    if (nodeErrorCode(err) !== "ESRCH") throw toRuntimeError(err);
  }
}

/** The processes whose initial environment holds `TREE_MARKER_VARIABLE=<prefix>...` (none without /proc). */
function markedProcesses(prefix: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const key = `${TREE_MARKER_VARIABLE}=`;
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    } catch {
      continue;
    }
    if (!environ.includes(key)) continue;
    const value = environ
      .split("\0")
      .find((v) => v.startsWith(key))
      ?.slice(key.length);
    // A whole marker ("-12" must not match "-123"), or every marker of this bridge ("<instance>-").
    if (value !== undefined && (prefix.endsWith("-") ? value.startsWith(prefix) : value === prefix)) found.push(pid);
  }
  return found;
}

function kill(pid: number, signal: KillSignal | "SIGSTOP"): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already, or not ours to signal.
  }
}

/**
 * Signals every process carrying the marker. A SIGKILL freezes them first, scanning until no new
 * one appears, so nothing forks its way out between the scan and the kill.
 */
function signalMarked(marker: string, signal: KillSignal): void {
  if (signal !== "SIGKILL") {
    for (const pid of markedProcesses(marker)) kill(pid, signal);
    return;
  }
  const frozen = new Set<number>();
  for (let round = 0; round < FREEZE_ROUNDS; round++) {
    const fresh = markedProcesses(marker).filter((pid) => !frozen.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      kill(pid, "SIGSTOP");
      frozen.add(pid);
    }
  }
  for (const pid of frozen) kill(pid, "SIGKILL");
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // Out of our reach (EPERM): nothing more an exit or an abort can do.
  }
}

/** SIGTERM to a tree from an exit or an abort, where a throw would crash the process. */
export function endGroup(pid: number, marker?: string): void {
  quietly(() => signalGroup(pid, "SIGTERM"));
  if (marker !== undefined) quietly(() => signalMarked(marker, "SIGTERM"));
}

/**
 * Child.kill for every runtime: `killChild` signals the child alone (the runtime's own kill);
 * `{ group: true }` signals its tree (its group and every process with its marker), which only a
 * processGroup child has.
 */
export function groupAwareKill(
  killChild: (signal: KillSignal) => void,
  child: { pid: number | undefined; processGroup: boolean; marker?: string },
): Child["kill"] {
  const { pid, processGroup, marker } = child;
  return (signal = "SIGTERM", opts = {}) => {
    if (opts.group !== true) return killChild(signal);
    if (!processGroup) throw new RuntimeError("EINVAL", "kill(signal, { group: true }) needs a child spawned with processGroup: true");
    if (pid !== undefined) signalGroup(pid, signal);
    if (marker !== undefined) signalMarked(marker, signal);
  };
}

/** Runs `onAbort` when `signal` aborts, until `exited` settles (a child's abort, on every runtime). */
export function abortUntilExit(signal: AbortSignal | undefined, child: { exited: Promise<unknown>; onAbort: () => void }): void {
  const { exited, onAbort } = child;
  if (signal === undefined) return;
  signal.addEventListener("abort", onAbort, { once: true });
  void exited.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
}
