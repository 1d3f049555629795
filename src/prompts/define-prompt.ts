// A prompt is data, one per file (like a tool): its name (Claude Code shows it as the slash command
// /mcp__<server>__<name>), what it is for, its arguments with what completes each, and how it
// assembles its text from the bridge's own tools.
import type { PromptContext } from "./prompt-context.ts";

/** What completion/complete offers for an argument's value. */
export type CompletionKind = "path" | "symbol" | "branch" | "failingTest" | "ref";

export interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
  complete?: CompletionKind;
}

export interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  /** The prompt's text; `args` holds every required argument (checked before this runs). */
  build(args: Readonly<Record<string, string | undefined>>, ctx: PromptContext): Promise<string>;
}

const NAME = /^[a-z][a-zA-Z0-9-]{2,40}$/;

export function definePrompt(prompt: Prompt): Prompt {
  if (!NAME.test(prompt.name)) throw new Error(`prompt name ${prompt.name} must be kebab-case`);
  return prompt;
}
