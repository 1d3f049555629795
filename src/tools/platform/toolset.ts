// Tools come in toolsets (DESIGN.md, "Tools are data"): a name and a one-line purpose the server's
// instructions show the model, so it knows what to search for before any tool schema is loaded.
import type { Tool } from "./define-tool.ts";

export interface Toolset {
  /** Lowercase, one word: "workspace", "git", "lsp". */
  readonly name: string;
  /** What the tools are for, in the words a model would search with (one line). */
  readonly purpose: string;
  readonly tools: readonly Tool[];
}

export function defineToolset(toolset: Toolset): Toolset {
  return toolset;
}
