// Tools come in toolsets (DESIGN.md, "Tools are data"): a name and a one-line purpose the server's
// instructions show the model, so it knows what to search for before any tool schema is loaded.
import type { Tool } from "./define-tool.ts";
import { withToolsetDefaults, type ToolsetDefaults } from "./toolset-defaults.ts";

export interface Toolset {
  /** Lowercase, one word: "workspace", "git", "lsp". */
  readonly name: string;
  /** What the tools are for, in the words a model would search with (one line). */
  readonly purpose: string;
  /**
   * What every tool of the toolset shares (see ToolsetDefaults for how a tool's own values combine).
   * Already merged into `tools` by defineToolset; kept so a variant of the toolset (a test's, with
   * other tools) is defined with the same.
   */
  readonly defaults?: ToolsetDefaults;
  readonly tools: readonly Tool[];
}

export function defineToolset(toolset: Toolset): Toolset {
  const { defaults } = toolset;
  if (defaults === undefined) return toolset;
  return { ...toolset, tools: toolset.tools.map((tool) => withToolsetDefaults(tool, defaults)) };
}

/**
 * Claude Code's IDE link serves `ide` (its tools, in --slim too: it needs every one) and the other
 * toolsets' tools under the names `ide` does not take (src/tools/ide-link-toolsets.ts). Given the
 * IDE toolset rather than importing it, so the bridge can compose it from the tool manifest.
 */
export function withIdeLink(ide: Toolset, toolsets: readonly Toolset[]): Toolset[] {
  const taken = new Set(ide.tools.map((t) => t.name));
  const rest = toolsets.map((t) => ({ ...t, tools: t.tools.filter((tool) => !taken.has(tool.name)) })).filter((t) => t.tools.length > 0);
  return [{ ...ide, tools: ide.tools.map((tool) => ({ ...tool, slim: true })) }, ...rest];
}
