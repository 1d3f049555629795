// MCP Tasks (the io.modelcontextprotocol/tasks extension, SEP-2663): a long tool call runs on
// after its request was answered with a task handle; the client polls tasks/get for status,
// progress (statusMessage) and, once terminal, the result, and may cancel with tasks/cancel.
// Task ids are unguessable (a random UUID), the only handle a stateless client has. The store is
// bounded: finished tasks are kept for TASK_TTL_MS, and at most MAX_TASKS at once; when every
// place holds a running task, a new call runs synchronously instead. One store per bridge, released
// at stop (running tasks are aborted), never module state.
import type { Params } from "../protocol/jsonrpc.ts";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Kept this long after creation (then dropped, as the extension's ttlMs allows). */
export const TASK_TTL_MS = 60 * 60_000;
const POLL_INTERVAL_MS = 1_000;
const MAX_TASKS = 200;

interface Entry {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  result?: Params;
  error?: { code: number; message: string; data?: unknown };
  controller: AbortController;
}

/** The work of a task: resolves to the result the request would have returned synchronously. */
export type TaskWork = (signal: AbortSignal, report: (message: string) => void) => Promise<Params>;

interface TaskStoreOptions {
  now?: () => number;
  /** Called with the full task (as tasks/get shows it) whenever it changes. */
  onChange?(taskId: string, task: Params): void;
}

export class TaskStore {
  private readonly tasks = new Map<string, Entry>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly opts: TaskStoreOptions = {}) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Tasks still working (the bridge is busy while any is). */
  get running(): number {
    let n = 0;
    for (const entry of this.tasks.values()) if (entry.status === "working") n += 1;
    return n;
  }

  /**
   * Starts `work` as a task and returns it as created (status working), or undefined when the store
   * is full of running tasks or shutting down (the caller then answers synchronously).
   */
  start(work: TaskWork, opts: { statusMessage?: string } = {}): Params | undefined {
    if (this.disposed || !this.makeRoom()) return undefined;
    const now = this.now();
    const entry: Entry = {
      taskId: crypto.randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      controller: new AbortController(),
    };
    if (opts.statusMessage !== undefined) entry.statusMessage = opts.statusMessage;
    this.tasks.set(entry.taskId, entry);
    const created = view(entry);
    void work(entry.controller.signal, (message) => this.update(entry, { statusMessage: message })).then(
      (result) => this.finish(entry, entry.controller.signal.aborted ? { status: "cancelled" } : { status: "completed", result }),
      (err: unknown) =>
        this.finish(entry, {
          status: "failed",
          error: { code: -32603, message: `Internal error: ${err instanceof Error ? err.message : String(err)}` },
        }),
    );
    return created;
  }

  /** The task as tasks/get shows it, or undefined when unknown (never created, expired, dropped). */
  get(taskId: string): Params | undefined {
    this.expire();
    const entry = this.tasks.get(taskId);
    return entry && view(entry);
  }

  /** Asks a working task to stop; false when the id is unknown. Cooperative, as the extension says. */
  cancel(taskId: string): boolean {
    const entry = this.tasks.get(taskId);
    if (!entry) return false;
    if (entry.status === "working") {
      entry.controller.abort("cancelled by tasks/cancel");
      this.finish(entry, { status: "cancelled", statusMessage: "Cancelled by the client (tasks/cancel)." });
    }
    return true;
  }

  /** The bridge stops: every running task is aborted and everything is dropped. */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.tasks.values()) entry.controller.abort("the bridge is shutting down");
    this.tasks.clear();
  }

  private update(entry: Entry, change: Partial<Pick<Entry, "statusMessage">>): void {
    if (entry.status !== "working" || this.tasks.get(entry.taskId) !== entry) return;
    Object.assign(entry, change, { lastUpdatedAt: this.now() });
    this.opts.onChange?.(entry.taskId, view(entry));
  }

  private finish(entry: Entry, end: Partial<Entry> & { status: TaskStatus }): void {
    if (entry.status !== "working") return; // terminal states never change
    Object.assign(entry, end, { lastUpdatedAt: this.now() });
    if (this.tasks.get(entry.taskId) === entry) this.opts.onChange?.(entry.taskId, view(entry));
  }

  private expire(): void {
    const now = this.now();
    for (const [id, entry] of this.tasks) {
      if (entry.status !== "working" && now - entry.createdAt > TASK_TTL_MS) this.tasks.delete(id);
    }
  }

  /** Frees a place if the store is full: the oldest finished task goes. */
  private makeRoom(): boolean {
    this.expire();
    if (this.tasks.size < MAX_TASKS) return true;
    for (const [id, entry] of this.tasks) {
      if (entry.status !== "working") {
        this.tasks.delete(id);
        return true;
      }
    }
    return false;
  }
}

function view(entry: Entry): Params {
  const task: Params = {
    taskId: entry.taskId,
    status: entry.status,
    createdAt: new Date(entry.createdAt).toISOString(),
    lastUpdatedAt: new Date(entry.lastUpdatedAt).toISOString(),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  if (entry.statusMessage !== undefined) task.statusMessage = entry.statusMessage;
  if (entry.status === "completed" && entry.result !== undefined) task.result = entry.result;
  if (entry.status === "failed" && entry.error !== undefined) task.error = entry.error;
  return task;
}
