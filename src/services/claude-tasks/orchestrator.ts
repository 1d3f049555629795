// The Claude Code task orchestrator: a queue with a concurrency limit, each task going
// pending -> running -> done | failed | cancelled | timeout (or "interrupted" when a bridge stopped
// under it), its output lines streamed to subscribers as Claude Code's JSONL arrives, and the
// history kept on disk across bridge restarts (task-file.ts). One per bridge, shared by every
// session and by the automation hooks.
import { ToolError } from "../../errors.ts";
import type { ClaudeDriver } from "../../capabilities/claude/claude-driver.ts";
import {
  FINISHED_STATUSES,
  type ClaudeTask,
  type ClaudeTaskRequest,
  type ClaudeTasks,
  type ClaudeTaskStatus,
} from "../../capabilities/claude/claude-tasks.ts";
import { outputLines, toolActivity, type ToolActivity } from "./output-lines.ts";
import { MAX_KEPT_TASKS, type TaskFileWriter } from "./task-file.ts";

const OUTPUT_LINES_KEPT = 50;
const PREVIEW_CHARS = 200;
const RESULT_CHARS = 8000;
/** Tasks waiting for a slot; past it a submit is refused rather than queued for hours. */
const MAX_PENDING = 20;

export interface OrchestratorOptions {
  /** Undefined: tasks cannot run (the reason says why). */
  driver: ClaudeDriver | undefined;
  unavailable?: { reason: string; suggestion: string };
  /** Claude Code's working directory: the workspace root. */
  cwd: string;
  concurrency: number;
  /** The history read at start (task-file.ts), oldest first. */
  history?: readonly ClaudeTask[];
  writer?: Pick<TaskFileWriter, "changed" | "flush">;
  /** Each task that finished (automation's onTaskSuccess subscribes). */
  onFinished?(task: ClaudeTask): void;
  now?: () => number;
}

interface Live {
  request: ClaudeTaskRequest;
  abort: AbortController;
  listeners: Set<(line: string) => void>;
  settled: Promise<void>;
  settle: () => void;
}

export class ClaudeOrchestrator implements ClaudeTasks {
  readonly unavailable: ClaudeTasks["unavailable"];
  private readonly tasks = new Map<string, ClaudeTask>();
  private readonly live = new Map<string, Live>();
  private readonly queue: string[] = [];
  private running = 0;
  private stopped = false;
  private readonly toolListeners = new Set<(taskId: string, activity: ToolActivity) => void>();
  private readonly now: () => number;

  constructor(private readonly opts: OrchestratorOptions) {
    this.now = opts.now ?? Date.now;
    for (const task of opts.history ?? []) this.tasks.set(task.id, task);
    this.unavailable =
      opts.driver === undefined
        ? (opts.unavailable ?? {
            reason: "No Claude Code driver is configured",
            suggestion: "Start the bridge with --claude-driver subprocess.",
          })
        : undefined;
  }

  submit(request: ClaudeTaskRequest): ClaudeTask {
    if (this.unavailable !== undefined)
      throw new ToolError("claude_unavailable", this.unavailable.reason, { suggestion: this.unavailable.suggestion });
    if (this.stopped)
      throw new ToolError("cancelled", "The bridge is shutting down", { suggestion: "Submit it again once the bridge has restarted." });
    if (this.queue.length >= MAX_PENDING) {
      throw new ToolError("limit_reached", `${MAX_PENDING} tasks are already waiting for a slot`, {
        suggestion: "Wait for some to finish (listClaudeTasks), or cancel some with cancelClaudeTask.",
      });
    }
    const id = `task-${crypto.randomUUID().slice(0, 8)}`;
    const task: ClaudeTask = {
      id,
      status: "pending",
      trigger: request.trigger,
      promptPreview: request.prompt.slice(0, PREVIEW_CHARS),
      timeoutMs: request.timeoutMs,
      createdAt: this.now(),
      output: [],
      ...(request.model === undefined ? {} : { model: request.model }),
      ...(request.effort === undefined ? {} : { effort: request.effort }),
      ...(request.resumedFrom === undefined ? {} : { resumedFrom: request.resumedFrom }),
    };
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.tasks.set(id, task);
    this.live.set(id, { request, abort: new AbortController(), listeners: new Set(), settled, settle });
    this.queue.push(id);
    this.trim();
    this.changed();
    this.pump();
    return { ...task };
  }

  get(id: string): ClaudeTask | undefined {
    const task = this.tasks.get(id);
    return task && { ...task, output: [...task.output] };
  }

  list(opts: { status?: ClaudeTaskStatus; limit?: number } = {}): ClaudeTask[] {
    const all = [...this.tasks.values()].filter((t) => opts.status === undefined || t.status === opts.status).reverse();
    return all.slice(0, opts.limit ?? all.length).map((t) => ({ ...t, output: [...t.output] }));
  }

  async cancel(id: string): Promise<ClaudeTask | undefined> {
    const task = this.tasks.get(id);
    const live = this.live.get(id);
    if (task === undefined) return undefined;
    if (live === undefined) return this.get(id);
    if (task.status === "pending") {
      this.queue.splice(this.queue.indexOf(id), 1);
      this.finish(id, { status: "cancelled", error: "cancelled before it started" });
    } else {
      live.abort.abort();
      await live.settled;
    }
    return this.get(id);
  }

  /** Each tool use a running task's stream announces, and its result (automation's loop guard); returns the unsubscribe function. */
  onToolActivity(listener: (taskId: string, activity: ToolActivity) => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  subscribe(id: string, listener: (line: string) => void): () => void {
    const live = this.live.get(id);
    if (live === undefined) return () => {};
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  }

  async settled(id: string, signal: AbortSignal): Promise<ClaudeTask | undefined> {
    const live = this.live.get(id);
    if (live !== undefined && !signal.aborted) {
      await new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => resolve(), { once: true });
        void live.settled.then(resolve);
      });
    }
    return this.get(id);
  }

  /** The bridge stops: running tasks are ended and marked interrupted, the history written. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const id of this.queue.splice(0)) this.finish(id, { status: "interrupted", error: "the bridge stopped before the task started" });
    const running = [...this.live.values()];
    for (const live of running) live.abort.abort("stop");
    await Promise.all(running.map((l) => l.settled));
    await this.opts.writer?.flush();
  }

  private pump(): void {
    while (!this.stopped && this.running < this.opts.concurrency && this.queue.length > 0) {
      const id = this.queue.shift();
      if (id !== undefined) void this.start(id);
    }
  }

  private async start(id: string): Promise<void> {
    const task = this.tasks.get(id);
    const live = this.live.get(id);
    const driver = this.opts.driver;
    if (task === undefined || live === undefined || driver === undefined) return;
    this.running++;
    task.status = "running";
    task.startedAt = this.now();
    this.changed();
    try {
      const { request } = live;
      const run = await driver.run(
        {
          prompt: request.prompt,
          cwd: this.opts.cwd,
          timeoutMs: request.timeoutMs,
          taskId: id,
          ...(request.model === undefined ? {} : { model: request.model }),
          ...(request.effort === undefined ? {} : { effort: request.effort }),
          ...(request.systemPrompt === undefined ? {} : { systemPrompt: request.systemPrompt }),
          ...(request.resumeSessionId === undefined ? {} : { resumeSessionId: request.resumeSessionId }),
          onEvent: (event) => {
            if (typeof event.session_id === "string" && task.sessionId === undefined) {
              task.sessionId = event.session_id;
              this.changed();
            }
            for (const line of outputLines(event)) this.emit(id, line);
            for (const activity of toolActivity(event)) for (const listener of this.toolListeners) listener(id, activity);
          },
        },
        live.abort.signal,
      );
      const interrupted = run.outcome === "cancelled" && live.abort.signal.reason === "stop";
      this.finish(id, {
        status: interrupted ? "interrupted" : run.outcome,
        ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
        ...(run.result === undefined ? {} : { result: run.result.slice(0, RESULT_CHARS) }),
        ...(run.numTurns === undefined ? {} : { numTurns: run.numTurns }),
        ...(run.costUsd === undefined ? {} : { costUsd: run.costUsd }),
        ...(interrupted
          ? { error: "the bridge stopped while the task ran" }
          : run.outcome === "timeout"
            ? { error: `stopped after its timeout of ${request.timeoutMs} ms` }
            : run.error === undefined
              ? {}
              : { error: run.error }),
      });
    } finally {
      this.running--;
      this.pump();
    }
  }

  private emit(id: string, line: string): void {
    const task = this.tasks.get(id);
    if (task === undefined) return;
    task.output.push(line);
    if (task.output.length > OUTPUT_LINES_KEPT) task.output.splice(0, task.output.length - OUTPUT_LINES_KEPT);
    for (const listener of this.live.get(id)?.listeners ?? []) {
      try {
        listener(line);
      } catch {
        // A subscriber's fault is its own.
      }
    }
  }

  private finish(id: string, fields: Partial<ClaudeTask> & { status: ClaudeTaskStatus }): void {
    const task = this.tasks.get(id);
    if (task === undefined) return;
    Object.assign(task, fields, { endedAt: this.now() });
    const live = this.live.get(id);
    this.live.delete(id);
    live?.settle();
    this.changed();
    if (!this.stopped) this.opts.onFinished?.({ ...task, output: [...task.output] });
  }

  /** Drops the oldest finished tasks past MAX_KEPT_TASKS. */
  private trim(): void {
    let excess = this.tasks.size - MAX_KEPT_TASKS;
    for (const [id, task] of this.tasks) {
      if (excess <= 0) break;
      if (FINISHED_STATUSES.includes(task.status)) {
        this.tasks.delete(id);
        excess--;
      }
    }
  }

  private changed(): void {
    this.opts.writer?.changed();
  }

  /** What the history file holds, oldest first. */
  snapshot(): ClaudeTask[] {
    return [...this.tasks.values()];
  }
}
