// Work-done progress ($/progress begin/report/end) of one server: what it is busy with, so a
// whole-project request can wait until the server has loaded or indexed its project and otherwise
// say in its result what the server was still doing, rather than pass a partial answer off as whole.
// Tokens that ended are remembered: a server whose readiness is one named task (clangd's background
// index) is ready once that task ended once, and not before, even while nothing else is running.
// A server whose readiness is a line it logs (pyright's "Found N source files") is told here too.
import { WakeList } from "./wake-list.ts";
import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

type WorkDone = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/**
 * A token the server asked for (window/workDoneProgress/create) counts as work about to begin for
 * this long: pyright asks for one when an analysis pass ends with files left, but begins it only
 * after its next pass, which can take seconds; a token never begun stops counting after this.
 */
const CREATED_BEGINS_WITHIN_MS = 10_000;

interface ProgressParams<T> {
  token: ProgressToken;
  value: T;
}

/** Where one named task stands: never begun, running, or ended at least once. */
export type TaskState = "not-begun" | "running" | "ended";

export class ProgressTracker {
  private readonly active = new Map<string | number, string>();
  private readonly endedOnce = new Set<string | number>();
  /** Tokens asked for and not begun yet, with when. */
  private readonly created = new Map<string | number, number>();
  private readonly ended = new WakeList();
  private readonly changed = new WakeList();
  /** The server logged its readiness line (ServerSpec.readyLog). */
  private logged = false;

  onProgress(params: unknown): void {
    if (!isProgress(params)) return;
    const value = params.value;
    this.created.delete(params.token);
    if (value.kind === "begin") this.active.set(params.token, value.title + (value.message ? `: ${value.message}` : ""));
    else if (value.kind === "report" && this.active.has(params.token) && value.message)
      this.active.set(params.token, `${(this.active.get(params.token) ?? "").split(":")[0]}: ${value.message}`);
    else if (value.kind === "end") {
      this.active.delete(params.token);
      this.endedOnce.add(params.token);
    }
    this.changed.wake();
    if (this.active.size === 0) this.wake();
  }

  /** The server asked for a progress token: work it will report is about to begin. */
  onCreate(params: unknown): void {
    const token = (params as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" && typeof token !== "number") return;
    // A token never begun stops counting: it is forgotten here rather than kept for the server's life.
    for (const [known, at] of this.created) if (at + CREATED_BEGINS_WITHIN_MS <= Date.now()) this.created.delete(known);
    this.created.set(token, Date.now());
    this.changed.wake();
  }

  /**
   * Resolves true once no progress is active and no token asked for is still to begin (within
   * CREATED_BEGINS_WITHIN_MS of being asked for), false at the deadline or on abort.
   */
  async settled(deadline: number, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (!(await this.idle(deadline, signal))) return false;
      const pending = [...this.created.values()].map((at) => at + CREATED_BEGINS_WITHIN_MS).filter((until) => until > Date.now());
      if (pending.length === 0) return true;
      if (Date.now() >= deadline || signal.aborted) return false;
      await this.changed.wait(Math.min(deadline, ...pending), signal);
    }
  }

  /** What the server says it is doing now ("Loading packages", "indexing: 3/40"). */
  busyWith(): string[] {
    return [...this.active.values()];
  }

  /** Resolves true once no progress is active, false at the deadline or on abort. */
  async idle(deadline: number, signal: AbortSignal): Promise<boolean> {
    while (this.active.size > 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted) return false;
      await this.ended.wait(deadline, signal);
    }
    return true;
  }

  taskState(token: string): TaskState {
    if (this.endedOnce.has(token)) return "ended";
    return this.active.has(token) ? "running" : "not-begun";
  }

  /**
   * Waits for the task `token` to end once: until `beginBy` for it to begin, until `deadline` for
   * it to end (or abort). Answers where it stands then.
   */
  async taskEnded(token: string, opts: { beginBy: number; deadline: number; signal: AbortSignal }): Promise<TaskState> {
    for (;;) {
      const state = this.taskState(token);
      if (state === "ended" || opts.signal.aborted) return state;
      const until = state === "not-begun" ? Math.min(opts.beginBy, opts.deadline) : opts.deadline;
      if (Date.now() >= until) return state;
      await this.changed.wait(until, opts.signal);
    }
  }

  /** A window/logMessage: the readiness line (ServerSpec.readyLog) when `readyLine` matches it. */
  onLogMessage(params: unknown, readyLine: RegExp): void {
    const message = (params as { message?: unknown } | undefined)?.message;
    if (typeof message === "string" && readyLine.test(message)) this.noteReadyLog();
  }

  /** The server logged that it knows its project's files (ServerSpec.readyLog). */
  noteReadyLog(): void {
    this.logged = true;
    this.changed.wake();
  }

  /** Resolves true once the server logged its readiness line, false at the deadline or on abort. */
  async readyLog(deadline: number, signal: AbortSignal): Promise<boolean> {
    while (!this.logged) {
      if (Date.now() >= deadline || signal.aborted) return false;
      await this.changed.wait(deadline, signal);
    }
    return true;
  }

  /** The server died: nothing it started is still running, and its successor indexes anew. */
  reset(): void {
    this.logged = false;
    this.active.clear();
    this.endedOnce.clear();
    this.created.clear();
    this.changed.wake();
    this.wake();
  }

  private wake(): void {
    this.ended.wake();
  }
}

function isProgress(params: unknown): params is ProgressParams<WorkDone> {
  if (typeof params !== "object" || params === null || !("token" in params) || !("value" in params)) return false;
  const value = (params as { value: unknown }).value;
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    ["begin", "report", "end"].includes(String((value as { kind: unknown }).kind))
  );
}
