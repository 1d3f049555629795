// The task history on disk: one JSON file per workspace in the bridge's state directory
// (`<lock dir>/claude-tasks/<hash of the workspace root>.json`, mode 0600: prompts and answers can
// name the user's code). Written whole and atomically after each change, one write at a time, the
// last state winning; read once at start, where tasks a previous bridge left pending or running are
// marked "interrupted" (their process ended with that bridge).
import * as v from "valibot";
import type { Runtime } from "../../ports/runtime.ts";
import type { ClaudeTask } from "../../capabilities/claude/claude-tasks.ts";
import { errorMessage, fsErrorCode } from "../../errors.ts";

/** Finished tasks kept; the oldest go first. */
export const MAX_KEPT_TASKS = 200;

const TaskSchema = v.object({
  id: v.string(),
  status: v.picklist(["pending", "running", "done", "failed", "cancelled", "timeout", "interrupted"]),
  trigger: v.string(),
  promptPreview: v.string(),
  model: v.optional(v.string()),
  effort: v.optional(v.picklist(["low", "medium", "high", "xhigh", "max"])),
  timeoutMs: v.number(),
  createdAt: v.number(),
  startedAt: v.optional(v.number()),
  endedAt: v.optional(v.number()),
  sessionId: v.optional(v.string()),
  resumedFrom: v.optional(v.string()),
  result: v.optional(v.string()),
  error: v.optional(v.string()),
  numTurns: v.optional(v.number()),
  costUsd: v.optional(v.number()),
  output: v.array(v.string()),
});
const FileSchema = v.object({ version: v.literal(1), workspace: v.string(), tasks: v.array(TaskSchema) });

type FileRuntime = Pick<Runtime, "fs">;

export async function taskFilePath(stateDir: string, root: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(root)));
  const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${stateDir}/claude-tasks/${hex}.json`;
}

export async function loadTasks(
  runtime: FileRuntime,
  path: string,
  opts: { now: number; warn: (message: string) => void },
): Promise<ClaudeTask[]> {
  let text: string;
  try {
    text = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) !== "ENOENT") opts.warn(`cannot read the task history ${path}: ${errorMessage(err)}`);
    return [];
  }
  let parsed: v.InferOutput<typeof FileSchema>;
  try {
    parsed = v.parse(FileSchema, JSON.parse(text));
  } catch (err) {
    opts.warn(`ignoring the task history ${path}: ${errorMessage(err)}`);
    return [];
  }
  return parsed.tasks.map((task) =>
    task.status === "pending" || task.status === "running"
      ? { ...task, status: "interrupted", endedAt: opts.now, error: "the bridge stopped before the task finished" }
      : task,
  );
}

/** Writes the history, one write at a time; a change during a write is written right after it. */
export class TaskFileWriter {
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly runtime: FileRuntime,
    private readonly opts: { path: string; workspace: string; snapshot: () => readonly ClaudeTask[]; warn: (message: string) => void },
  ) {}

  /** Schedules a write of the current state. */
  changed(): void {
    this.dirty = true;
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
    });
  }

  /** Resolves once everything changed so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      const body = JSON.stringify({ version: 1, workspace: this.opts.workspace, tasks: this.opts.snapshot() });
      try {
        const dir = this.opts.path.slice(0, this.opts.path.lastIndexOf("/"));
        await this.runtime.fs.mkdir(dir, { recursive: true, mode: 0o700 });
        await this.runtime.fs.writeFileAtomic(this.opts.path, body, { mode: 0o600 });
      } catch (err) {
        this.opts.warn(`cannot write the task history ${this.opts.path}: ${errorMessage(err)}`);
      }
    }
  }
}
