// launchQuickTask: runClaudeTask with a ready prompt for the common jobs: fix a file's errors, write
// tests for a file, explain a failure. What comes from the workspace or the caller as data (the
// failure text) is fenced, so an instruction inside it stays quoted.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { fence, fenceNonce } from "../../lib/text/fence.ts";
import { defineTool } from "../platform/define-tool.ts";
import { TaskViewSchema, maybeWait, taskView } from "./task-view.ts";
import { TaskOptionFields, taskPrompt, taskRequestFields } from "./task-input.ts";

const PRESETS = {
  fixErrors: (file: string) =>
    `Fix the compile, type and lint errors in ${file}. Change only what the errors require, then check the file again and say what you changed.`,
  writeTests: (file: string) => `Write tests for ${file} in the project's test framework and layout, run them, and say which pass.`,
  explainFailure: (file: string | undefined) =>
    `Explain why this fails${file === undefined ? "" : ` (in ${file})`}: find the cause in the code, say it plainly, and propose a fix without applying it.`,
} as const;

export default defineTool({
  name: "launchQuickTask",
  title: "Launch a quick Claude Code task",
  description: "Starts a Claude Code task from a preset: fixErrors or writeTests for a file, explainFailure for a failure's text.",
  searchHint: "quickly fix the errors in a file with claude, write tests, explain a failure: quick task presets",
  input: v.strictObject({
    preset: v.pipe(v.picklist(["fixErrors", "writeTests", "explainFailure"]), v.description("What the task does.")),
    file: v.optional(v.pipe(v.string(), v.minLength(1), v.description("The workspace file (required by fixErrors and writeTests)."))),
    failure: v.optional(v.pipe(v.string(), v.maxLength(16_384), v.description("explainFailure: the error or test output to explain."))),
    ...TaskOptionFields,
  }),
  output: TaskViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handler(input, ctx) {
    if (input.preset !== "explainFailure" && input.file === undefined) {
      throw new ToolError("invalid_arguments", `${input.preset} needs a file`, { suggestion: "Pass file: the workspace path to work on." });
    }
    if (input.preset === "explainFailure" && input.failure === undefined && input.file === undefined) {
      throw new ToolError("invalid_arguments", "explainFailure needs the failure text or a file", {
        suggestion: "Pass failure: the error message or test output.",
      });
    }
    const files = input.file === undefined ? [] : [input.file];
    let base = input.preset === "explainFailure" ? PRESETS.explainFailure(input.file) : PRESETS[input.preset](input.file ?? "");
    if (input.failure !== undefined) base += `\n\n${fence("the failure to explain", input.failure, { nonce: fenceNonce() })}`;
    const prompt = await taskPrompt(ctx, base, { files });
    const task = ctx.claudeTasks.submit({ ...taskRequestFields(input), prompt, trigger: "tool" });
    return taskView(await maybeWait(ctx.claudeTasks, task, { wait: input.wait === true, signal: ctx.signal }), { outputLines: 20 });
  },
});
