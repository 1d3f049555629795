// One debug session: an adapter process, its DAP link, and what its events said (stopped where,
// running, ended with which code, what the program printed). Requests go through it; waiting for the
// program to stop again is a promise on the next stop or end, never a poll.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DapConnection } from "./dap-connection.ts";
import type { AdapterSpec } from "./debug-adapters.ts";
import { OutputLog } from "./output-log.ts";

export interface StopInfo {
  reason: string;
  threadId: number | undefined;
  description?: string;
  text?: string;
  hitBreakpointIds?: number[];
}

export type RunState =
  | { kind: "starting" }
  | { kind: "running" }
  | { kind: "stopped"; stop: StopInfo }
  | { kind: "ended"; exitCode: number | undefined; why: string };

/** What happened while waiting: the program stopped, ended, or is still running after the timeout. */
export type WaitOutcome =
  | { kind: "stopped"; stop: StopInfo }
  | { kind: "ended"; exitCode: number | undefined; why: string }
  | { kind: "running" };

export interface SessionProcess {
  readonly pid: number | undefined;
  /** Ends the adapter's whole process tree (the program it launched included). */
  kill(): Promise<void>;
  readonly exited: Promise<number>;
}

export class DebugSession {
  private state: RunState = { kind: "starting" };
  private waiters = new Set<() => void>();
  readonly output = new OutputLog();
  /** Verified state of breakpoints by id, as the adapter's breakpoint events update it. */
  readonly breakpointUpdates = new Map<number, DebugProtocol.Breakpoint>();
  capabilities: DebugProtocol.Capabilities = {};
  readonly startedAt = performance.now();
  /** When the program first stopped, ms after startedAt. */
  firstStopMs: number | undefined;
  /** The debugged program's process id, when the adapter told it (DAP's process event). */
  programPid: number | undefined;
  /** The debugged program as the adapter named it (DAP's process event): a script's path for debugpy. */
  programName: string | undefined;
  private stopping: Promise<void> | undefined;
  private markEnded: (end: { exitCode: number | undefined }) => void = () => {};
  /** Resolves once, when the session ends (the program's exit code when the adapter reported one first). */
  readonly ended = new Promise<{ exitCode: number | undefined }>((resolve) => {
    this.markEnded = resolve;
  });

  readonly adapter: AdapterSpec;
  readonly connection: DapConnection;
  private readonly adapterProcess: SessionProcess;
  /** Attached to a program the user started: stopping the session detaches and leaves it running. */
  readonly attached: boolean;

  constructor(
    readonly id: string,
    parts: { adapter: AdapterSpec; connection: DapConnection; adapterProcess: SessionProcess; attached?: boolean },
  ) {
    this.attached = parts.attached === true;
    this.adapter = parts.adapter;
    this.connection = parts.connection;
    this.adapterProcess = parts.adapterProcess;
    this.connection.onEvent((event) => this.onEvent(event));
    void this.connection.closed.then(() => this.end(undefined, "the debug adapter exited"));
    void this.adapterProcess.exited.then(() => this.end(undefined, "the debug adapter exited"));
  }

  get runState(): RunState {
    return this.state;
  }

  get pid(): number | undefined {
    return this.adapterProcess.pid;
  }

  /** Resolves on the next stop or end after this call, or "running" after `timeoutMs`. */
  waitForChange(timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", finish);
        resolve(this.outcome());
      };
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve({ kind: "running" });
      };
      this.waiters.add(done);
      timer = setTimeout(finish, timeoutMs);
      signal?.addEventListener("abort", finish, { once: true });
    });
  }

  /** The current stop or end without waiting, else waits like waitForChange. */
  async settled(timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.state.kind === "stopped" || this.state.kind === "ended") return this.outcome();
    return this.waitForChange(timeoutMs, signal);
  }

  /** Marks the program running before a continue or step is sent, so the next stop is a new one. */
  markRunning(): void {
    if (this.state.kind !== "ended") this.state = { kind: "running" };
  }

  /** Ends the session: asks the adapter to end the program, then ends the process tree whatever it answered. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.connection.isClosed) {
        // An attached program is let go running, not left suspended under its own debugger (a headless
        // delve keeps a stopped program stopped after the client leaves, whatever suspendDebuggee says).
        const s = this.state;
        if (this.attached && s.kind === "stopped") {
          await this.connection.request("continue", { threadId: s.stop.threadId ?? 0 }, { timeoutMs: 2000 }).catch(() => {});
        }
        const leave = this.attached ? { terminateDebuggee: false, suspendDebuggee: false } : { terminateDebuggee: true };
        await this.connection.request("disconnect", leave, { timeoutMs: 2000 }).catch(() => {});
      }
      await this.connection.close();
      await this.adapterProcess.kill();
      this.end(undefined, "the debug session was stopped");
    })();
    return this.stopping;
  }

  /** Resolves once stop() has ended the adapter's process tree; undefined before stop() was called. */
  get stopped(): Promise<void> | undefined {
    return this.stopping;
  }

  private outcome(): WaitOutcome {
    const s = this.state;
    if (s.kind === "stopped") return { kind: "stopped", stop: s.stop };
    if (s.kind === "ended") return { kind: "ended", exitCode: s.exitCode, why: s.why };
    return { kind: "running" };
  }

  private onEvent(event: DebugProtocol.Event): void {
    switch (event.event) {
      case "output": {
        const body = (event as DebugProtocol.OutputEvent).body;
        if (body.category !== "telemetry") this.output.append(body.category ?? "console", body.output);
        return;
      }
      case "stopped": {
        const body = (event as DebugProtocol.StoppedEvent).body;
        this.firstStopMs ??= Math.round(performance.now() - this.startedAt);
        this.state = {
          kind: "stopped",
          stop: {
            reason: body.reason,
            threadId: body.threadId,
            ...(body.description === undefined ? {} : { description: body.description }),
            ...(body.text === undefined ? {} : { text: body.text }),
            ...(body.hitBreakpointIds === undefined ? {} : { hitBreakpointIds: body.hitBreakpointIds }),
          },
        };
        this.wake();
        return;
      }
      case "continued":
        if (this.state.kind !== "ended") this.state = { kind: "running" };
        return;
      case "exited": {
        const code = (event as DebugProtocol.ExitedEvent).body.exitCode;
        this.end(code, `the program exited with code ${code}`);
        return;
      }
      case "terminated":
        this.end(undefined, "the debug session ended");
        return;
      case "breakpoint": {
        const bp = (event as DebugProtocol.BreakpointEvent).body.breakpoint;
        if (bp.id !== undefined) this.breakpointUpdates.set(bp.id, bp);
        return;
      }
      case "process": {
        const body = (event as DebugProtocol.ProcessEvent).body;
        this.programPid = body.systemProcessId;
        this.programName = body.name;
        return;
      }
      case "capabilities":
        this.capabilities = { ...this.capabilities, ...(event as DebugProtocol.CapabilitiesEvent).body.capabilities };
        return;
    }
  }

  private end(exitCode: number | undefined, why: string): void {
    if (this.state.kind === "ended") {
      // An exit code that comes after "terminated" (or the other way round) still counts.
      if (this.state.exitCode === undefined && exitCode !== undefined) this.state = { kind: "ended", exitCode, why };
      return;
    }
    this.state = { kind: "ended", exitCode, why };
    this.markEnded({ exitCode });
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
