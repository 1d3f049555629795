// What the task tools take in common (model, effort, system prompt, timeout, wait) and the prompt
// checks: at most 32 KB, context files resolved through the jail (each must be a workspace file).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { ClaudeTaskRequest } from "../../capabilities/claude/claude-tasks.ts";

export const MAX_PROMPT_BYTES = 32 * 1024;
const DEFAULT_TIMEOUT_MS = 300_000;

export const TaskOptionFields = {
  model: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._:@/-]{1,100}$/, "a model name"), v.description("Claude Code's --model."))),
  effort: v.optional(v.pipe(v.picklist(["low", "medium", "high", "xhigh", "max"]), v.description("Claude Code's --effort."))),
  systemPrompt: v.optional(v.pipe(v.string(), v.maxLength(8192), v.description("Appended to Claude Code's system prompt."))),
  timeoutMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(5000),
      v.maxValue(600_000),
      v.description("5000-600000 (default 300000); the task is killed after it."),
    ),
  ),
  wait: v.optional(v.pipe(v.boolean(), v.description("Answer once the task finished (bounded by this call's timeout); default: at once."))),
};

type OptionInput = { model?: string; effort?: ClaudeTaskRequest["effort"]; systemPrompt?: string; timeoutMs?: number };

export function taskRequestFields(input: OptionInput): Omit<ClaudeTaskRequest, "prompt" | "trigger"> {
  return {
    timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(input.model === undefined ? {} : { model: input.model }),
    ...(input.effort === undefined ? {} : { effort: input.effort }),
    ...(input.systemPrompt === undefined ? {} : { systemPrompt: input.systemPrompt }),
  };
}

/** The prompt with the context files named after it; refuses a prompt over 32 KB and files outside the workspace. */
export async function taskPrompt(ctx: ToolContext, prompt: string, opts: { files: readonly string[] }): Promise<string> {
  const { files } = opts;
  const bytes = new TextEncoder().encode(prompt).length;
  if (bytes > MAX_PROMPT_BYTES) {
    throw new ToolError("invalid_arguments", `The prompt is ${bytes} bytes; at most ${MAX_PROMPT_BYTES} are taken`, {
      suggestion: "Shorten it, and name the files the task should read in contextFiles instead of pasting them.",
    });
  }
  if (files.length === 0) return prompt;
  const checked: string[] = [];
  for (const file of files) {
    const path = await ctx.fs.resolve(file);
    if (!(await ctx.fs.stat(path)).isFile) {
      throw new ToolError("not_a_file", `${file} is not a file`, {
        suggestion: "contextFiles names files of the workspace, not directories.",
      });
    }
    checked.push(ctx.fs.relative(path));
  }
  return `${prompt}\n\nRead these workspace files first:\n${checked.map((f) => `- ${f}`).join("\n")}`;
}
