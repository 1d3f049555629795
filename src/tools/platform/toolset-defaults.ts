// What the tools of one toolset share (git's executable, gh's timeout), stated once on the toolset
// instead of in each tool. defineToolset merges them into each tool when the toolset is defined, at
// start-up, so the registry, the dispatcher's checks and getToolCapabilities all see one effective
// tool and nothing reads the defaults at call time.
import type { ToolRequirements } from "../../capabilities/context.ts";
import type { DeclaredRequirements, Tool } from "./define-tool.ts";

export interface ToolsetDefaults {
  /**
   * Added to each tool's own. A probe is required when the toolset or the tool requires it, and
   * optional when either names it optional and neither requires it. The toolset's come first: a
   * call missing several executables is told about the toolset's own first (gh before git).
   */
  readonly requires?: DeclaredRequirements;
  /** Each tool's timeoutMs unless the tool states its own, which wins whether longer or shorter. */
  readonly timeoutMs?: number;
}

/** The tool as its toolset runs it. Applying the same defaults twice gives the same tool. */
export function withToolsetDefaults(tool: Tool, defaults: ToolsetDefaults): Tool {
  const probes = union(defaults.requires?.probes, tool.requires.probes);
  const optionalProbes = union(defaults.requires?.optionalProbes, tool.requires.optionalProbes).filter((p) => !probes.includes(p));
  const requires: ToolRequirements = {};
  if (probes.length > 0) requires.probes = probes;
  if (optionalProbes.length > 0) requires.optionalProbes = optionalProbes;
  if (tool.requires.extension !== undefined) requires.extension = tool.requires.extension;
  if (tool.requires.extensionProtocol !== undefined) requires.extensionProtocol = tool.requires.extensionProtocol;
  return { ...tool, requires, timeoutMs: tool.timeoutMs ?? defaults.timeoutMs };
}

function union(first: readonly string[] = [], second: readonly string[] = []): readonly string[] {
  return [...new Set([...first, ...second])];
}
