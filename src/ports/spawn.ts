// The process port: children spawned without a shell, with web streams and an exit promise.
export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  /**
   * Text or bytes are written to stdin, then stdin is closed; "pipe" keeps it open as
   * `child.stdin` for a conversation (a language server's LSP). Without it stdin is closed at once.
   */
  stdin?: string | Uint8Array | "pipe";
  /**
   * The child leads a new session and process group (setsid), so `kill(sig, { group: true })`
   * and an abort of `signal` reach its whole tree (a test runner's workers, a shell's jobs), and
   * it carries a marker in its environment that its descendants inherit, so a job that left the
   * group with setsid or a double fork is reached too (where /proc exists).
   * Being outside the bridge's group, it gets neither the terminal's Ctrl-C nor its hangup: the
   * bridge's shutdown handlers can still stop it in order. It never keeps the bridge's event loop
   * alive (reading its output does not either: the bridge's server does), and its group is sent
   * SIGTERM when the bridge process exits, so it cannot outlive the bridge as an orphan (a
   * SIGKILL of the bridge aside, which nothing can catch).
   */
  processGroup?: boolean;
  /**
   * With `processGroup`: the tree is the group alone, with no marker and no scan of every
   * process's environment when it ends. Only for programs that start nothing that leaves the
   * group (git with its hooks, daemons and automatic gc switched off by the runner's fixed
   * settings): the scan is most of what ending a short command costs.
   */
  groupOnly?: boolean;
  /**
   * With `processGroup`: run the child as the first process of a PID namespace of its own where the
   * system allows one (Linux, runtime/shared/pid-namespace.ts), so that everything it started ends
   * when it exits, a process that detached and cleared its environment included. Its `pid` is then
   * the wrapper's, the parent of the child. Such a tree needs no marker, so ending it costs no scan.
   */
  ownPidNamespace?: boolean;
  /** Aborting sends SIGTERM: to the child, or to its whole group with `processGroup`. */
  signal?: AbortSignal;
}

export type KillSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

export interface Child {
  readonly pid: number | undefined;
  /**
   * With `stdin: "pipe"` only. Closing or aborting it closes the child's stdin; a write after
   * the child closed its end or exited fails with EPIPE.
   */
  readonly stdin: WritableStream<Uint8Array> | undefined;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves with the exit code (signal deaths give 128 + signal number). */
  readonly exited: Promise<number>;
  /**
   * Signals the child, or with `group` its whole tree (its process group and every process with
   * its marker): that needs `processGroup` (else EINVAL), and still reaches what is left of the
   * tree after the child itself exited.
   */
  kill(signal?: KillSignal, opts?: { group?: boolean }): void;
}
