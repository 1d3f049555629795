// The prompts a session serves: prompts/list entries, prompts/get with its arguments checked, and
// completion/complete for their values. Protocol faults (an unknown prompt, a missing required
// argument) are the caller's to turn into JSON-RPC errors; a prompt whose tools fail still
// answers, saying what failed, because a half-assembled context that says so is still useful.
import { type Completion, complete } from "./completions.ts";
import type { Prompt } from "./define-prompt.ts";
import type { PromptContext } from "./prompt-context.ts";

export interface PromptListEntry {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

export type PromptProblem =
  | { kind: "unknown_prompt"; name: string; known: readonly string[] }
  | { kind: "missing_argument"; prompt: string; argument: string }
  | { kind: "unknown_argument"; prompt: string; argument: string; known: readonly string[] };

export class PromptCatalog {
  private readonly byName = new Map<string, Prompt>();

  constructor(prompts: readonly Prompt[]) {
    for (const prompt of prompts) {
      if (this.byName.has(prompt.name)) throw new Error(`prompt ${prompt.name} is defined twice`);
      this.byName.set(prompt.name, prompt);
    }
  }

  get size(): number {
    return this.byName.size;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  list(): PromptListEntry[] {
    return [...this.byName.values()].map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required === true })),
    }));
  }

  /** Checks the arguments of a prompts/get; the problem, or the prompt and its arguments. */
  check(
    name: string,
    args: Readonly<Record<string, string>>,
  ): { ok: true; prompt: Prompt; args: Record<string, string | undefined> } | { ok: false; problem: PromptProblem } {
    const prompt = this.byName.get(name);
    if (prompt === undefined) return { ok: false, problem: { kind: "unknown_prompt", name, known: this.names() } };
    const known = prompt.arguments.map((a) => a.name);
    for (const given of Object.keys(args)) {
      if (!known.includes(given)) return { ok: false, problem: { kind: "unknown_argument", prompt: name, argument: given, known } };
    }
    const out: Record<string, string | undefined> = {};
    for (const arg of prompt.arguments) {
      const value = args[arg.name]?.trim();
      if ((value === undefined || value === "") && arg.required) {
        return { ok: false, problem: { kind: "missing_argument", prompt: name, argument: arg.name } };
      }
      out[arg.name] = value === "" ? undefined : value;
    }
    return { ok: true, prompt, args: out };
  }

  /** Values for one argument of one prompt; none when the argument has nothing to complete. */
  async complete(ref: { prompt: string; argument: string; value: string }, ctx: PromptContext): Promise<Completion | undefined> {
    const arg = this.byName.get(ref.prompt)?.arguments.find((a) => a.name === ref.argument);
    if (arg === undefined) return undefined;
    if (arg.complete === undefined) return { values: [], total: 0, hasMore: false };
    return complete(arg.complete, ref.value, ctx);
  }
}
