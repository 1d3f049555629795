// The process table port: what the debugger's attach rule needs to know about another process of
// the machine (owner, parent, executable, working directory, the loopback ports it listens on), and
// the one signal it sends (SIGUSR1, which opens a Node program's inspector). Linux answers it from
// /proc; a runtime elsewhere leaves it out, and attaching by process id is then refused.

export interface ProcessFacts {
  readonly pid: number;
  readonly parentPid: number;
  /** Real and effective user ids (the Uid line of /proc/PID/status). */
  readonly uid: number;
  readonly effectiveUid: number;
  /** Absolute path of its executable; undefined when it cannot be read (another user's, or deleted). */
  readonly executable: string | undefined;
  /** Absolute working directory; undefined when it cannot be read. */
  readonly cwd: string | undefined;
  /** Its command line as it was started (empty for a kernel thread or an unreadable one). */
  readonly argv: readonly string[];
  /** When it started, in ms since the epoch (to the second: /proc counts from boot). */
  readonly startedAtMs: number | undefined;
}

export interface ProcessTable {
  /** The bridge's own process id. */
  readonly ownPid: number;
  /** Facts of a live process; undefined when there is none with that id (or it cannot be read). */
  describe(pid: number): Promise<ProcessFacts | undefined>;
  /** The TCP ports the process listens on (any local address), in ascending order. */
  listeningPorts(pid: number): Promise<number[]>;
  /** The process listening on a TCP port, when one of those the bridge may read owns it. */
  listenerOf(port: number): Promise<number | undefined>;
  /** Yama's kernel.yama.ptrace_scope (0 to 3); undefined when the kernel has no Yama (classic ptrace rules). */
  ptraceScope(): Promise<number | undefined>;
  /** Sends the signal; throws when the process is gone or not the bridge's to signal. */
  signal(pid: number, name: "SIGUSR1"): void;
}
