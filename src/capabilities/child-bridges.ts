// Child bridges (spawnWorkspace): another bridge of this same copy, serving a folder of its own with
// its own jail, port, token and lock file, so a client can work in a second project. Only folders
// under a --spawn-root the user gave may be served. A child starts like a bridge the user started
// in a terminal: the user's environment without this bridge's own settings (its token, config file,
// OAuth issuer), and a fresh token of its own, so nothing reached through the child opens the parent.
// Each child leads its own process group, so what it leaves behind is ended too, and the runtime
// sends the group SIGTERM when this bridge exits. A child ends when the session that
// started it ends, when that session stops it, and when this bridge stops.
// Whether a VS Code extension is connected to a child is read from the child's own log ("VS Code
// extension connected" / "disconnected", src/extension/extension-client.ts): the extension finds the
// child by its lock file once the user opens the folder in VS Code. No editor is started here: a
// window (or code-server) the bridge opened would run the folder's tasks and extensions unasked.
import { ToolError } from "../errors.ts";
import { isInside } from "../lib/paths/posix-path.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { Child } from "../ports/spawn.ts";
import type { ToolsetState } from "./toolset-state.ts";

/** Child bridges at most, over all sessions: each is a server with language servers of its own. */
export const MAX_CHILD_BRIDGES = 3;
/** How long a child may take to listen; a cold start under load takes seconds. */
const READY_TIMEOUT_MS = 60_000;
/** From SIGTERM to SIGKILL when a child is stopped. */
const STOP_GRACE_MS = 5_000;
/** The last output kept to explain a child that failed to start. */
const KEPT_OUTPUT_CHARS = 2_000;
const LISTENING = /listening on (http:\/\/\S+) /;
const EXTENSION_CONNECTED = "VS Code extension connected";
const EXTENSION_DISCONNECTED = "VS Code extension disconnected";
/** This bridge's own settings, which a bridge the user starts in a terminal would not have. */
const OWN_SETTINGS = /^(CLAUDE_IDE_BRIDGE_|BRIDGE_BIND_ADDRESS$)/;

export interface BridgeLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

export interface ChildBridgeInfo {
  /** The session that started it: the child ends with that session. */
  readonly session: string;
  readonly folder: string;
  /** The child's Streamable HTTP endpoint. */
  readonly mcpUrl: string;
  readonly token: string;
  readonly pid: number | undefined;
  /** A VS Code extension is connected to the child now, as its log last said. */
  readonly extensionConnected: boolean;
}

interface RunningChild extends Omit<ChildBridgeInfo, "extensionConnected"> {
  readonly process: Child;
  readonly extension: ExtensionPresence;
}

type ChildRuntime = Pick<Runtime, "spawn" | "env" | "fs">;

export class ChildBridges implements ToolsetState {
  private readonly children = new Set<RunningChild>();
  /** Children starting, by folder, so a second call for the same folder waits for the same child. */
  private readonly pending = new Map<string, Promise<RunningChild>>();
  private disposed = false;

  constructor(
    private readonly runtime: ChildRuntime,
    private readonly opts: { launch: BridgeLaunch | undefined; spawnRoots: readonly string[] },
  ) {}

  /** The children a session started. */
  of(session: string): ChildBridgeInfo[] {
    return [...this.children].filter((c) => c.session === session).map(infoOf);
  }

  /**
   * Starts a bridge on `folder` for `session` and resolves once it listens, and then, given
   * `waitForExtensionMs`, once a VS Code extension connected to it or that time passed (the answer
   * says which). A folder's running child is answered as it is.
   */
  async start(session: string, folder: string, opts: { signal: AbortSignal; waitForExtensionMs?: number }): Promise<ChildBridgeInfo> {
    const child = await this.running(session, folder, opts.signal);
    await child.extension.until(opts.waitForExtensionMs ?? 0, opts.signal);
    return infoOf(child);
  }

  private async running(session: string, folder: string, signal: AbortSignal): Promise<RunningChild> {
    const real = await this.allowedFolder(folder);
    const same = [...this.children].find((c) => c.folder === real);
    if (same !== undefined) return same;
    const inFlight = this.pending.get(real);
    if (inFlight !== undefined) return inFlight;
    if (this.children.size + this.pending.size >= MAX_CHILD_BRIDGES) {
      throw new ToolError("limit_reached", `${MAX_CHILD_BRIDGES} child bridges run already`, {
        suggestion: "Stop one with stopWorkspace first.",
      });
    }
    const launch = this.opts.launch;
    if (launch === undefined) {
      throw new ToolError("not_supported", "This bridge does not know the command that starts it, so it cannot start another", {
        suggestion: "Ask the user to start a bridge in that folder: claude-ide-bridge --workspace <folder>.",
      });
    }
    const started = this.launch(launch, { session, folder: real, signal });
    this.pending.set(real, started);
    try {
      return await started;
    } finally {
      this.pending.delete(real);
    }
  }

  private async launch(launch: BridgeLaunch, what: { session: string; folder: string; signal: AbortSignal }): Promise<RunningChild> {
    const token = `${crypto.randomUUID()}${crypto.randomUUID()}`.replaceAll("-", "");
    const child = this.runtime.spawn(launch.command, [...launch.args, "--workspace", what.folder, "--port", "0", "--bind", "127.0.0.1"], {
      cwd: what.folder,
      env: { ...userEnvironment(this.runtime.env), CLAUDE_IDE_BRIDGE_TOKEN: token },
      processGroup: true,
    });
    const extension = new ExtensionPresence();
    const mcpUrl = await listeningUrl(child, { signal: what.signal, extension }).catch(async (err: unknown) => {
      await stopChild(child);
      throw err;
    });
    // The session ended (its calls are aborted then) or the bridge stopped while the child started.
    if (what.signal.aborted || this.disposed) {
      await stopChild(child);
      throw new ToolError("cancelled", "The session or the bridge ended while the child bridge started", { suggestion: "Start it again." });
    }
    const running: RunningChild = { session: what.session, folder: what.folder, mcpUrl, token, pid: child.pid, process: child, extension };
    this.children.add(running);
    void child.exited.then(() => this.children.delete(running));
    return running;
  }

  /** Stops the session's child on `folder`; resolves once it exited. False when the session has none there. */
  async stop(session: string, folder: string): Promise<boolean> {
    const real = await this.runtime.fs.realpath(folder).catch(() => folder);
    const child = [...this.children].find((c) => c.session === session && c.folder === real);
    if (child === undefined) return false;
    this.children.delete(child);
    await stopChild(child.process);
    return true;
  }

  releaseSession(session: string): void {
    for (const child of this.children) {
      if (child.session !== session) continue;
      this.children.delete(child);
      void stopChild(child.process);
    }
  }

  /**
   * Stops every child and resolves once they exited. The bridge awaits it before it exits: a child
   * still shutting down when this process exits gets the group's SIGTERM as a second signal, which
   * a bridge takes as "exit now", before its lock file is removed.
   */
  async stopAll(): Promise<void> {
    this.disposed = true;
    const all = [...this.children];
    this.children.clear();
    await Promise.all(all.map((child) => stopChild(child.process)));
  }

  dispose(): void {
    this.disposed = true;
    for (const child of this.children) void stopChild(child.process);
    this.children.clear();
  }

  private async allowedFolder(folder: string): Promise<string> {
    const roots = this.opts.spawnRoots;
    if (roots.length === 0) {
      throw new ToolError("permission_denied", "No folder is allowed for child bridges", {
        suggestion: "Ask the user to restart the bridge with --spawn-root <dir>: folders under it may then be served.",
      });
    }
    const real = await this.runtime.fs.realpath(folder).catch(() => undefined);
    if (real === undefined || !(await this.runtime.fs.stat(real)).isDirectory) {
      throw new ToolError("not_a_directory", `${folder} is not an existing directory`, {
        suggestion: "Pass the absolute path of a project folder.",
      });
    }
    const realRoots = await Promise.all(roots.map((root) => this.runtime.fs.realpath(root).catch(() => root)));
    if (!realRoots.some((root) => isInside(real, root) && real !== root)) {
      throw new ToolError("permission_denied", `${folder} is not under a --spawn-root (${roots.join(", ")})`, {
        suggestion: "Pick a folder under one of them, or ask the user to restart the bridge with --spawn-root for its parent.",
      });
    }
    return real;
  }
}

function infoOf(child: RunningChild): ChildBridgeInfo {
  const { session, folder, mcpUrl, token, pid } = child;
  return { session, folder, mcpUrl, token, pid, extensionConnected: child.extension.connected };
}

/** Whether the child's VS Code extension is connected, from the child's log lines. */
class ExtensionPresence {
  connected = false;
  private readonly waiters = new Set<() => void>();

  /** One or more whole lines of the child's log. */
  saw(lines: string): void {
    const on = lines.lastIndexOf(EXTENSION_CONNECTED);
    const off = lines.lastIndexOf(EXTENSION_DISCONNECTED);
    if (on === -1 && off === -1) return;
    this.connected = on > off;
    if (this.connected) for (const wake of [...this.waiters]) wake();
  }

  /** Resolves with `connected` once it is true, `ms` passed, or `signal` aborted. */
  until(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.connected || ms <= 0 || signal.aborted) return Promise.resolve(this.connected);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", wake);
        this.waiters.delete(wake);
        resolve(this.connected);
      };
      const timer = setTimeout(wake, ms);
      signal.addEventListener("abort", wake, { once: true });
      this.waiters.add(wake);
    });
  }
}

function userEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && !OWN_SETTINGS.test(key)) kept[key] = value;
  return kept;
}

/**
 * Reads the child's log until it says where it listens; keeps reading it after, so it never blocks on
 * a full pipe, and tells `extension` what it says of the VS Code extension.
 */
async function listeningUrl(child: Child, opts: { signal: AbortSignal; extension: ExtensionPresence }): Promise<string> {
  const { signal } = opts;
  void child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const reader = child.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const give = (why: string) =>
    new ToolError(
      "tool_failed",
      `The child bridge ${why}${seen.trim() === "" ? "" : `; its last output: ${seen.slice(-KEPT_OUTPUT_CHARS).trim()}`}`,
      {
        suggestion: "Check the folder (its config, its permissions), or start a bridge there yourself to see the whole log.",
      },
    );
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READY_TIMEOUT_MS)]);
  const stopped = new Promise<never>((_, reject) => {
    const onAbort = () => reject(give(signal.aborted ? "start was cancelled" : `did not listen within ${READY_TIMEOUT_MS / 1000} s`));
    if (timeout.aborted) onAbort();
    else timeout.addEventListener("abort", onAbort, { once: true });
    void child.exited.then((code) => reject(give(`exited with code ${code} before it listened`)));
  });
  stopped.catch(() => {});
  for (;;) {
    const { done, value } = await Promise.race([reader.read(), stopped]);
    // Its output ended: its exit (or the time limit) says what happened.
    if (done) return stopped;
    seen = (seen + decoder.decode(value, { stream: true })).slice(-KEPT_OUTPUT_CHARS * 2);
    const url = LISTENING.exec(seen)?.[1];
    if (url !== undefined) {
      void follow(reader, { decoder, extension: opts.extension, rest: seen.slice(seen.lastIndexOf("\n") + 1) });
      return `${url}/mcp`;
    }
  }
}

/** The rest of the child's log, line by line for what it says of the extension; the rest is the child's own. */
async function follow(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  opts: { decoder: TextDecoder; extension: ExtensionPresence; rest: string },
): Promise<void> {
  let partial = opts.rest;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const text = partial + opts.decoder.decode(value, { stream: true });
      const end = text.lastIndexOf("\n") + 1;
      opts.extension.saw(text.slice(0, end));
      // A line longer than the kept output is no line of the extension's: only its tail is kept.
      partial = text.slice(end).slice(-KEPT_OUTPUT_CHARS);
    }
  } catch {
    // The child exited; nothing more to read.
  }
}

/**
 * SIGTERM to the child alone: a bridge takes a second signal during its shutdown as "exit now",
 * before its lock file is removed, and a signal to the group reaches it twice (the group, and its
 * marker). What its tree left behind once it exited is then ended as a group; SIGKILL after a grace.
 */
async function stopChild(child: Child): Promise<void> {
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL", { group: true }), STOP_GRACE_MS);
  try {
    await child.exited;
  } finally {
    clearTimeout(timer);
  }
  child.kill("SIGKILL", { group: true });
}
