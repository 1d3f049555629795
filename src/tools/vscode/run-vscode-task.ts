// runVSCodeTask: runs a VS Code task by name and waits for its end (its exit code), or says it is
// still running (a watch task). A task is a command line from the workspace (tasks.json, an npm
// script, a gulpfile) run in a VS Code terminal with VS Code's whole environment, secrets included,
// which runCommand's scrubbed children never see. A model can write the files tasks come from, so
// only tasks the user named with --vscode-allow-task run (vscode-policy.ts), and the bridge's own
// tools cannot write .vscode/ (src/security/jail/vscode-places.ts).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { taskAllowed } from "./vscode-policy.ts";

export default defineTool({
  name: "runVSCodeTask",
  title: "Run VS Code task",
  description:
    "Runs a VS Code task the user allowed (--vscode-allow-task) by name and waits for its exit code: its command runs in a VS Code terminal with VS Code's environment.",
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
    if (!taskAllowed(input.name, ctx.settings.vscodeAllowTasks ?? [])) {
      throw new ToolError(
        "permission_denied",
        `Task "${input.name}" is not one the user allowed: a task runs workspace commands with VS Code's whole environment, and the workspace's task files can be written by anyone who writes the workspace`,
        {
          suggestion: `Ask the user to run it in VS Code (Terminal > Run Task), or to restart the bridge with --vscode-allow-task "${input.name}"; for the command alone, runCommand runs it without the secrets.`,
        },
      );
    }
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
