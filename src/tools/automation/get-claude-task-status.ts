// getClaudeTaskStatus: one task, with the last lines of its output, or waiting for it to finish.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TaskIdField, TaskViewSchema, maybeWait, requireTask, taskView } from "./task-view.ts";

export default defineTool({
  name: "getClaudeTaskStatus",
  title: "Claude Code task status",
  description: "Shows a Claude Code task: status, result or error, session id and the last lines of its output.",
  searchHint: "claude task status progress result output background agent",
  input: v.strictObject({
    taskId: TaskIdField,
    wait: v.optional(v.pipe(v.boolean(), v.description("Answer once the task finished (bounded by this call's timeout)."))),
    outputLines: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(50), v.description("Output lines shown (default 20).")),
    ),
  }),
  output: TaskViewSchema,
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const task = await maybeWait(ctx.claudeTasks, requireTask(ctx.claudeTasks, input.taskId), {
      wait: input.wait === true,
      signal: ctx.signal,
    });
    return taskView(task, { outputLines: input.outputLines ?? 20 });
  },
});
