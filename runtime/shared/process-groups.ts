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
// A `groupOnly` child (src/ports/spawn.ts) carries no marker: its tree is its group, and ending it
// costs no scan (one reads every process's environment).
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { Child, KillSignal } from "../../src/ports/spawn.ts";
import { nodeErrorCode, toRuntimeError } from "./errors.ts";

const TREE_MARKER_VARIABLE = "CLAUDE_IDE_BRIDGE_TREE";
/** This bridge process's part of every marker, so the exit hook can find all of its trees. */
const INSTANCE = `${process.pid}.${crypto.randomUUID().slice(0, 8)}`;
let treeCount = 0;
/** Rounds of stop-and-scan before the SIGKILL: a tree forking faster than that is out of reach. */
const FREEZE_ROUNDS = 8;

const liveLeaders = new Set<number>();
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
export function trackGroup(pid: number, exited: Promise<unknown>): void {
  liveLeaders.add(pid);
  void exited.finally(() => liveLeaders.delete(pid)).catch(() => {});
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // "exit" runs on process.exit() (runtime/shared/shutdown.ts) and when the event loop empties; only
  // synchronous work can happen here, which a signal and a /proc scan are.
  process.once("exit", () => {
    for (const leader of liveLeaders) quietly(() => signalGroup(leader, "SIGTERM"));
    quietly(() => signalMarked(`${INSTANCE}-`, "SIGKILL"));
  });
}

/** kill(-pid): every process of the group; false when the group is gone (ESRCH, not an error). */
function signalGroup(pid: number, signal: KillSignal): boolean {
  try {
    // Windows has no process groups to signal; its detached child is killed alone.
    process.kill(process.platform === "win32" ? pid : -pid, signal);
    return true;
  } catch (err) {
    if (nodeErrorCode(err) !== "ESRCH") throw toRuntimeError(err);
    return false;
  }
}

interface Scan {
  pids: number[];
  /**
   * Whether every process listed was read. One that went away before its environment was read
   * may have been marked and have forked a marked child the listing missed, so a scan that found
   * nothing proves the tree gone only when it is complete.
   */
  complete: boolean;
}

const MARKER_KEY = new TextEncoder().encode(`${TREE_MARKER_VARIABLE}=`);
const ASCII = new TextDecoder("latin1");
/** One buffer for every environment read: a scan reads every process's, after every command. */
let environBuffer = new Uint8Array(64 * 1024);

/** The processes whose initial environment holds `TREE_MARKER_VARIABLE=<prefix>...` (none without /proc). */
function markedProcesses(prefix: string): Scan {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return { pids: [], complete: true };
  }
  const pids: number[] = [];
  let complete = true;
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = readEnviron(pid);
    if (environ === "gone") complete = false;
    if (environ === "gone" || environ === "unreadable") continue;
    // Most processes carry no marker: look for the key in the bytes before making a string.
    const at = indexOf(environ, MARKER_KEY);
    if (at < 0) continue;
    const end = environ.indexOf(0, at);
    const value = ASCII.decode(environ.subarray(at + MARKER_KEY.length, end < 0 ? environ.length : end));
    // A whole marker ("-12" must not match "-123"), or every marker of this bridge ("<instance>-").
    if (prefix.endsWith("-") ? value.startsWith(prefix) : value === prefix) pids.push(pid);
  }
  return { pids, complete };
}

/** /proc/<pid>/environ's bytes (a view of the shared buffer), or why there are none. */
function readEnviron(pid: number): Uint8Array | "gone" | "unreadable" {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/environ`, "r");
  } catch (err) {
    return nodeErrorCode(err) === "ENOENT" || nodeErrorCode(err) === "ESRCH" ? "gone" : "unreadable";
  }
  try {
    let length = 0;
    for (;;) {
      if (length === environBuffer.length) {
        const bigger = new Uint8Array(environBuffer.length * 2);
        bigger.set(environBuffer);
        environBuffer = bigger;
      }
      const read = readSync(fd, environBuffer, length, environBuffer.length - length, null);
      if (read === 0) return environBuffer.subarray(0, length);
      length += read;
    }
  } catch (err) {
    return nodeErrorCode(err) === "ESRCH" ? "gone" : "unreadable";
  } finally {
    closeSync(fd);
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  if (first === undefined) return 0;
  for (let at = haystack.indexOf(first); at >= 0 && at + needle.length <= haystack.length; at = haystack.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

function kill(pid: number, signal: KillSignal | "SIGSTOP"): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already, or not ours to signal.
  }
}

/**
 * Signals every process carrying the marker, and says whether that scan proves none is left. A
 * SIGKILL freezes them first, scanning until no new one appears, so nothing forks its way out
 * between the scan and the kill.
 */
function signalMarked(marker: string, signal: KillSignal): { found: number; complete: boolean } {
  if (signal !== "SIGKILL") {
    const scan = markedProcesses(marker);
    for (const pid of scan.pids) kill(pid, signal);
    return { found: scan.pids.length, complete: scan.complete };
  }
  const frozen = new Set<number>();
  let complete = false;
  for (let round = 0; round < FREEZE_ROUNDS; round++) {
    const scan = markedProcesses(marker);
    const fresh = scan.pids.filter((pid) => !frozen.has(pid));
    complete = scan.complete;
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      kill(pid, "SIGSTOP");
      frozen.add(pid);
    }
  }
  for (const pid of frozen) kill(pid, "SIGKILL");
  return { found: frozen.size, complete };
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
  // Set once a signal found the tree empty: nothing is left to fork a new member, so a later
  // signal (the SIGKILL that follows every SIGTERM) need not scan every process again.
  let gone = false;
  return (signal = "SIGTERM", opts = {}) => {
    if (opts.group !== true) return killChild(signal);
    if (!processGroup) throw new RuntimeError("EINVAL", "kill(signal, { group: true }) needs a child spawned with processGroup: true");
    if (gone) return;
    const groupAlive = pid !== undefined && signalGroup(pid, signal);
    if (marker === undefined) return;
    const marked = signalMarked(marker, signal);
    gone = !groupAlive && marked.found === 0 && marked.complete;
  };
}

/** Runs `onAbort` when `signal` aborts, until `exited` settles (a child's abort, on every runtime). */
export function abortUntilExit(signal: AbortSignal | undefined, child: { exited: Promise<unknown>; onAbort: () => void }): void {
  const { exited, onAbort } = child;
  if (signal === undefined) return;
  signal.addEventListener("abort", onAbort, { once: true });
  void exited.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
}
