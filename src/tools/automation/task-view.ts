// How the task tools show a task: compact, no field twice, times as ISO strings, the output's last
// lines only where asked (status), and what to do next.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ClaudeTask, ClaudeTasks } from "../../capabilities/claude/claude-tasks.ts";

export const TaskIdField = v.pipe(
  v.string(),
  v.regex(/^task-[0-9a-f]{8}$/, "a task id such as task-1a2b3c4d"),
  v.description("Task id (task-…)."),
);

export const TaskSummarySchema = v.object({
  taskId: v.string(),
  status: v.string(),
  trigger: v.string(),
  prompt: v.string(),
  createdAt: v.string(),
  durationMs: v.optional(v.number()),
  error: v.optional(v.string()),
});

export const TaskViewSchema = v.object({
  ...TaskSummarySchema.entries,
  model: v.optional(v.string()),
  sessionId: v.optional(v.string()),
  resumedFrom: v.optional(v.string()),
  result: v.optional(v.string()),
  numTurns: v.optional(v.number()),
  costUsd: v.optional(v.number()),
  output: v.optional(v.array(v.string())),
  next: v.optional(v.string()),
});

export function taskSummary(task: ClaudeTask): v.InferOutput<typeof TaskSummarySchema> {
  return {
    taskId: task.id,
    status: task.status,
    trigger: task.trigger,
    prompt: task.promptPreview,
    createdAt: new Date(task.createdAt).toISOString(),
    ...(task.startedAt !== undefined && task.endedAt !== undefined ? { durationMs: task.endedAt - task.startedAt } : {}),
    ...(task.error === undefined ? {} : { error: task.error }),
  };
}

export function taskView(task: ClaudeTask, opts: { outputLines: number }): v.InferOutput<typeof TaskViewSchema> {
  const output = task.output.slice(-opts.outputLines);
  return {
    ...taskSummary(task),
    ...(task.model === undefined ? {} : { model: task.model }),
    ...(task.sessionId === undefined ? {} : { sessionId: task.sessionId }),
    ...(task.resumedFrom === undefined ? {} : { resumedFrom: task.resumedFrom }),
    ...(task.result === undefined ? {} : { result: task.result }),
    ...(task.numTurns === undefined ? {} : { numTurns: task.numTurns }),
    ...(task.costUsd === undefined ? {} : { costUsd: task.costUsd }),
    ...(output.length > 0 ? { output } : {}),
    ...nextStep(task),
  };
}

function nextStep(task: ClaudeTask): { next?: string } {
  if (task.status === "pending" || task.status === "running")
    return { next: `Poll getClaudeTaskStatus with taskId ${task.id}, or cancelClaudeTask to stop it.` };
  if (task.sessionId !== undefined && task.status !== "done")
    return { next: `resumeClaudeTask with taskId ${task.id} continues its conversation.` };
  return {};
}

export function requireTask(tasks: ClaudeTasks, id: string): ClaudeTask {
  const task = tasks.get(id);
  if (task === undefined) {
    throw new ToolError("task_not_found", `No task ${id}`, { suggestion: "listClaudeTasks shows the tasks this bridge knows." });
  }
  return task;
}

/** The task after waiting for it to finish, when asked to wait (the call's cancellation ends the wait, not the task). */
export async function maybeWait(tasks: ClaudeTasks, task: ClaudeTask, opts: { wait: boolean; signal: AbortSignal }): Promise<ClaudeTask> {
  if (!opts.wait) return task;
  return (await tasks.settled(task.id, opts.signal)) ?? task;
}
