// getToolCapabilities: which tools work on this machine right now, and for those that do not,
// what is missing and how to get it, so the model stops retrying a tool that cannot succeed.
import * as v from "valibot";
import type { ProbeResult, ToolContext, ToolSummary } from "../context.ts";
import { defineTool } from "../define-tool.ts";

/** Executables always reported, whether or not a registered tool needs them. */
const REPORTED_PROBES = ["git", "rg", "typescript-language-server", "gh"];

const ToolStatus = v.object({
  name: v.string(),
  available: v.boolean(),
  reason: v.optional(v.pipe(v.string(), v.description("Why the tool is unavailable."))),
  suggestion: v.optional(v.pipe(v.string(), v.description("How to make it available."))),
  note: v.optional(v.pipe(v.string(), v.description("Caveat for an available tool, e.g. fallback mode."))),
});
type ToolStatus = v.InferOutput<typeof ToolStatus>;

const Probe = v.object({ name: v.string(), available: v.boolean(), path: v.optional(v.string()) });

export default defineTool({
  name: "getToolCapabilities",
  title: "Tool capabilities",
  description: "Lists every bridge tool with whether it is usable now and, if not, why (missing executable or VS Code extension) and how to fix it. Check before relying on a tool.",
  input: v.object({}),
  output: v.object({
    extensionConnected: v.boolean(),
    probes: v.pipe(v.array(Probe), v.description("Executables looked up on PATH.")),
    counts: v.object({ total: v.number(), available: v.number(), unavailable: v.number() }),
    tools: v.array(ToolStatus),
  }),
  annotations: { readOnlyHint: true },
  async handler(_input, ctx) {
    const tools = ctx.catalog.list();
    const names = [...new Set([...REPORTED_PROBES, ...tools.flatMap((t) => (t.requires.probe ? [t.requires.probe] : []))])];
    const results = new Map(await Promise.all(names.map(async (n) => [n, await ctx.probes.get(n)] as const)));
    const statuses = tools.map((tool) => statusOf(tool, results, ctx));
    const available = statuses.filter((s) => s.available).length;
    return {
      extensionConnected: ctx.extension.connected,
      probes: names.map((name) => ({ name, available: results.get(name)?.available ?? false, path: results.get(name)?.path })),
      counts: { total: statuses.length, available, unavailable: statuses.length - available },
      tools: statuses,
    };
  },
});

function statusOf(tool: ToolSummary, probes: ReadonlyMap<string, ProbeResult>, ctx: ToolContext): ToolStatus {
  const { probe, extension } = tool.requires;
  if (probe !== undefined && !probes.get(probe)?.available) {
    return {
      name: tool.name,
      available: false,
      reason: `needs \`${probe}\` on PATH`,
      suggestion: `Install ${probe}, make sure it is on the bridge's PATH, and restart the bridge.`,
    };
  }
  if (extension === "required" && !ctx.extension.connected) {
    return {
      name: tool.name,
      available: false,
      reason: "needs the VS Code extension",
      suggestion: "Open the workspace in VS Code with the claude-ide-bridge extension installed; it connects on its own.",
    };
  }
  if (extension === "fallback" && !ctx.extension.connected) {
    return { name: tool.name, available: true, note: "fallback mode (no extension)" };
  }
  return { name: tool.name, available: true };
}
