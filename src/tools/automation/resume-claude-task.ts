// resumeClaudeTask: a new task that continues an earlier task's Claude Code conversation (--resume).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { TaskIdField, TaskViewSchema, maybeWait, requireTask, taskView } from "./task-view.ts";
import { TaskOptionFields, taskPrompt, taskRequestFields } from "./task-input.ts";

export default defineTool({
  name: "resumeClaudeTask",
  title: "Resume a Claude Code task",
  description: "Continues an earlier Claude Code task's conversation with a new prompt, as a new task (Claude Code's --resume).",
  searchHint: "resume continue claude task conversation follow up session",
  input: v.strictObject({
    taskId: TaskIdField,
    prompt: v.pipe(v.string(), v.minLength(1), v.description("What to do next (at most 32 KB).")),
    ...TaskOptionFields,
  }),
  output: TaskViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const earlier = requireTask(ctx.claudeTasks, input.taskId);
    if (earlier.status === "pending" || earlier.status === "running") {
      throw new ToolError("invalid_arguments", `Task ${earlier.id} is still ${earlier.status}`, {
        suggestion: "Wait for it (getClaudeTaskStatus with wait) or cancel it first.",
      });
    }
    if (earlier.sessionId === undefined) {
      throw new ToolError("invalid_arguments", `Task ${earlier.id} has no Claude Code session to resume (it never started one)`, {
        suggestion: "Start a new task with runClaudeTask instead.",
      });
    }
    const prompt = await taskPrompt(ctx, input.prompt, { files: [] });
    const task = ctx.claudeTasks.submit({
      ...taskRequestFields({ ...input, model: input.model ?? earlier.model }),
      prompt,
      trigger: "tool",
      resumeSessionId: earlier.sessionId,
      resumedFrom: earlier.id,
    });
    return taskView(await maybeWait(ctx.claudeTasks, task, { wait: input.wait === true, signal: ctx.signal }), { outputLines: 20 });
  },
});
