// cancelClaudeTask: a pending task never starts; a running one has its Claude Code process tree ended.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TaskIdField, TaskViewSchema, requireTask, taskView } from "./task-view.ts";

export default defineTool({
  name: "cancelClaudeTask",
  title: "Cancel a Claude Code task",
  description: "Cancels a pending or running Claude Code task; a running one has its process tree stopped.",
  searchHint: "cancel stop kill claude task background agent",
  input: v.strictObject({ taskId: TaskIdField }),
  output: TaskViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async handler(input, ctx) {
    requireTask(ctx.claudeTasks, input.taskId);
    const task = (await ctx.claudeTasks.cancel(input.taskId)) ?? requireTask(ctx.claudeTasks, input.taskId);
    return taskView(task, { outputLines: 5 });
  },
});
