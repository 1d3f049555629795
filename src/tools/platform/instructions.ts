// The initialize `instructions`, built from the toolsets. With tool search, Claude Code first shows
// the model only tool names (and search hints) plus these instructions, cut at 2 KB: they must say
// what the bridge is for and which words find its tools. The built-in toolsets' purposes always
// fit; plugin toolsets get one line each in the room left, and the ones past it are counted in a
// marker line (their tools stay in the tool list and tool search); tool names come last, while they fit.
import { displayName } from "../../lib/text/display-name.ts";

/** What the instructions read of a toolset (the shim builds them from the tool manifest too). */
interface DescribedToolset {
  readonly name: string;
  readonly purpose: string;
  readonly tools: readonly { readonly name: string }[];
}

/** Claude Code cuts server instructions at 2 KB (protocol.md D1). */
export const MAX_INSTRUCTIONS_BYTES = 2048;
/** Every plugin's toolset is named with this prefix (src/plugins/plugin-host.ts); no built-in one is. */
export const PLUGIN_TOOLSET_PREFIX = "plugin-";
/** A plugin's line is cut here: one plugin's long purpose must not take the room of the next. */
const PLUGIN_LINE_MAX_BYTES = 64;

export function buildInstructions(toolsets: readonly DescribedToolset[], opts: { root: string }): string {
  // Short on purpose: every byte here is a byte less for the toolsets' purposes and the plugins' lines.
  const head = `claude-ide-bridge: IDE tools for ${displayName(opts.root)} (paths relative to it; lines, columns 1-based).`;
  const intro = "Search these words to load the tools:";
  const tail = "Errors say why and what to do; getToolCapabilities: what cannot work here.";
  const builtIn = toolsets.filter((t) => !t.name.startsWith(PLUGIN_TOOLSET_PREFIX));
  const plugins = toolsets.filter((t) => t.name.startsWith(PLUGIN_TOOLSET_PREFIX));
  const lines = builtIn.map((t) => `- ${t.name}: ${t.purpose}`);
  let pluginLines: string[] = [];
  const assemble = () => [head, intro, ...lines, ...pluginLines, tail].join("\n");
  const fits = () => byteLength(assemble()) <= MAX_INSTRUCTIONS_BYTES;

  // As many plugins as fit, in load order, with the marker for the rest when some are left out.
  const allPluginLines = plugins.map((t) => clipBytes(`- ${t.name}: ${t.purpose}`, PLUGIN_LINE_MAX_BYTES));
  for (let shown = allPluginLines.length; shown >= 0; shown--) {
    const left = allPluginLines.length - shown;
    pluginLines = [...allPluginLines.slice(0, shown), ...(left > 0 ? [omittedMarker(left)] : [])];
    if (fits()) break;
  }
  // Tool names are in the tool list anyway; the purposes are what must fit. Names are added toolset by
  // toolset, in order, while the whole still fits, so the first toolsets name their tools.
  builtIn.forEach((t, i) => {
    const purposeOnly = lines[i] ?? "";
    lines[i] = `${purposeOnly} (${t.tools.map((tool) => tool.name).join(", ")})`;
    if (!fits()) lines[i] = purposeOnly;
  });
  return truncateBytes(assemble(), MAX_INSTRUCTIONS_BYTES);
}

function omittedMarker(count: number): string {
  return `- +${count} more plugin toolset${count > 1 ? "s" : ""} (tool search finds their tools)`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function clipBytes(text: string, max: number): string {
  return byteLength(text) <= max ? text : `${truncateBytes(text, max - byteLength("…"))}…`;
}

function truncateBytes(text: string, max: number): string {
  let out = text;
  while (byteLength(out) > max) out = out.slice(0, Math.max(0, out.length - (byteLength(out) - max)));
  return out;
}
