// runClaudeTask: hands a prompt to a Claude Code subprocess (the orchestrator's queue) and answers
// with the task, at once or, with wait, once it finished.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TaskViewSchema, maybeWait, taskView } from "./task-view.ts";
import { TaskOptionFields, taskPrompt, taskRequestFields } from "./task-input.ts";

export default defineTool({
  name: "runClaudeTask",
  title: "Run a Claude Code task",
  description:
    "Starts a Claude Code subprocess on a prompt in this workspace (queued, runs headless); answers its task id, or its result with wait.",
  searchHint: "have another claude work on this in the background: delegate a task to a headless agent subprocess",
  input: v.strictObject({
    prompt: v.pipe(v.string(), v.minLength(1), v.description("What the task should do (at most 32 KB).")),
    contextFiles: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1))),
        v.maxLength(20),
        v.description("Workspace files the task should read first (at most 20)."),
      ),
    ),
    ...TaskOptionFields,
  }),
  output: TaskViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const prompt = await taskPrompt(ctx, input.prompt, { files: input.contextFiles ?? [] });
    const task = ctx.claudeTasks.submit({ ...taskRequestFields(input), prompt, trigger: "tool" });
    return taskView(await maybeWait(ctx.claudeTasks, task, { wait: input.wait === true, signal: ctx.signal }), { outputLines: 20 });
  },
});
