// runVSCodeTask: runs a VS Code task by name and waits for its end (its exit code), or says it is
// still running (a watch task). Tasks are the workspace's commands: destructive, like runCommand.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "runVSCodeTask",
  title: "Run VS Code task",
  description:
    "Runs a VS Code task by name (listVSCodeTasks) and waits for it to end, returning its exit code; a watch task is reported still running.",
  searchHint: "run vscode task build task tasks.json wait exit code",
  input: v.strictObject({
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Task name.")),
    source: v.optional(v.pipe(v.string(), v.maxLength(100), v.description('When names repeat: "Workspace", "npm"...'))),
    waitMs: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(600_000), v.description("Wait this long for the end (default 120000).")),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: 620_000,
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const result = await ctx.extension.request(
      "extension/runTask",
      { name: input.name, ...(input.source === undefined ? {} : { source: input.source }), waitMs: input.waitMs ?? 120_000 },
      { signal: ctx.signal },
    );
    const label = `Task "${result.task.name}" (${result.task.source})`;
    if (!result.finished) return `${label} is still running after the wait; its output is in VS Code's terminal panel.`;
    return result.exitCode === null || result.exitCode === undefined
      ? `${label} ended; VS Code reported no exit code (a task without a process of its own).`
      : `${label} ended with exit code ${result.exitCode}.`;
  },
});
