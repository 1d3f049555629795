// listClaudeTasks: the bridge's Claude Code tasks, newest first, this bridge's and its predecessors'.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TaskSummarySchema, taskSummary } from "./task-view.ts";

export default defineTool({
  name: "listClaudeTasks",
  title: "List Claude Code tasks",
  description: "Lists Claude Code tasks, newest first, with status and trigger (a tool call or an automation hook).",
  searchHint: "show the task queue: list claude tasks, history, running background agents, automation",
  input: v.strictObject({
    status: v.optional(
      v.pipe(
        v.picklist(["pending", "running", "done", "failed", "cancelled", "timeout", "interrupted"]),
        v.description("Only tasks in this state."),
      ),
    ),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Default 20."))),
  }),
  output: v.object({ tasks: v.array(TaskSummarySchema), total: v.number(), driver: v.optional(v.string()) }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const all = ctx.claudeTasks.list(input.status === undefined ? {} : { status: input.status });
    const unavailable = ctx.claudeTasks.unavailable;
    return {
      tasks: all.slice(0, input.limit ?? 20).map(taskSummary),
      total: all.length,
      ...(unavailable === undefined ? {} : { driver: `${unavailable.reason}. ${unavailable.suggestion}` }),
    };
  },
});
