// The initialize `instructions`, built from the toolsets. With tool search, Claude Code first shows
// the model only tool names (and search hints) plus these instructions, cut at 2 KB: they must say
// what the bridge is for and which words find its tools.
import { displayName } from "../../lib/text/display-name.ts";
import type { Toolset } from "./toolset.ts";

/** Claude Code cuts server instructions at 2 KB (protocol.md D1). */
export const MAX_INSTRUCTIONS_BYTES = 2048;

export function buildInstructions(toolsets: readonly Toolset[], opts: { root: string }): string {
  const head = `claude-ide-bridge: IDE tools for the workspace at ${displayName(opts.root)}. Relative paths resolve against it; lines and columns are 1-based.`;
  const intro = "Tools by purpose (search with these words to load them):";
  const tail = "A failed call says why and what next; getToolCapabilities says what cannot work here.";
  // Tool names are in the tool list anyway; the purposes are what must fit. Names are added toolset by
  // toolset, in order, while the whole still fits, so the first toolsets name their tools.
  const lines = toolsets.map((t) => `- ${t.name}: ${t.purpose}`);
  const assemble = () => [head, intro, ...lines, tail].join("\n");
  toolsets.forEach((t, i) => {
    const purposeOnly = lines[i] ?? "";
    lines[i] = `${purposeOnly} (${t.tools.map((tool) => tool.name).join(", ")})`;
    if (byteLength(assemble()) > MAX_INSTRUCTIONS_BYTES) lines[i] = purposeOnly;
  });
  return truncateBytes(assemble(), MAX_INSTRUCTIONS_BYTES);
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function truncateBytes(text: string, max: number): string {
  let out = text;
  while (byteLength(out) > max) out = out.slice(0, Math.max(0, out.length - (byteLength(out) - max)));
  return out;
}
