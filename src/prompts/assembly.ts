// A prompt's text, assembled within a size budget: instructions first (never cut), then the
// context sections the prompt gathered, each fenced and cut so the whole stays under the budget.
// A cut section says how much it lost and which tool gives the rest, so the answer stays honest.
import { fence, fenceNonce } from "./fence.ts";
import type { PromptContext, ToolOutcome } from "./prompt-context.ts";

/** Characters a prompt's text may take (prompts land in the conversation; keep them modest). */
export const PROMPT_BUDGET_CHARS = 40_000;

interface Section {
  title: string;
  source: string;
  text: string;
  ok: boolean;
  /** How to get all of it, named when the section is cut. */
  more: string;
}

export class Assembly {
  private readonly sections: Section[] = [];
  private readonly notes: string[] = [];
  readonly nonce = fenceNonce();

  constructor(
    private readonly ctx: PromptContext,
    private readonly budget = PROMPT_BUDGET_CHARS,
  ) {}

  /** Calls a tool and keeps its answer as a section (an error is kept too: the model should know). */
  async add(title: string, call: { tool: string; args?: Record<string, unknown> }): Promise<ToolOutcome> {
    const outcome = await this.ctx.tool(call.tool, call.args ?? {});
    this.sections.push({
      title,
      source: `${call.tool}${call.args && Object.keys(call.args).length > 0 ? ` ${JSON.stringify(call.args)}` : ""}`,
      text: outcome.text,
      ok: outcome.ok,
      more: `call ${call.tool} yourself`,
    });
    return outcome;
  }

  /** A section of text the prompt already has (quoted the same way). */
  quote(title: string, text: string, opts: { source: string }): void {
    this.sections.push({ title, source: opts.source, text, ok: true, more: `read ${opts.source} yourself` });
  }

  /** A line of the bridge's own, outside any fence (what was not available, what was skipped). */
  note(line: string): void {
    this.notes.push(line);
  }

  /** The prompt's text: task, then the sections within what remains of the budget. */
  render(task: string): string {
    const head = [task.trim(), ...(this.notes.length > 0 ? ["", ...this.notes.map((n) => `Note: ${n}`)] : [])].join("\n");
    const parts = [head];
    let left = this.budget - head.length;
    const overhead = 400;
    this.sections.forEach((section, i) => {
      const share = Math.max(0, Math.floor(left / (this.sections.length - i)) - overhead);
      let text = section.text;
      let cut = "";
      if (text.length > share) {
        cut = `\n[cut: ${text.length - share} of ${text.length} characters left out to keep this prompt under ${this.budget} characters; ${section.more}]`;
        text = text.slice(0, share);
      }
      const status = section.ok ? "" : " (the tool reported an error)";
      const block = `\n## ${section.title}${status}\n${fence(section.source, text, { nonce: this.nonce })}${cut}`;
      parts.push(block);
      left -= block.length;
    });
    return parts.join("\n");
  }
}
