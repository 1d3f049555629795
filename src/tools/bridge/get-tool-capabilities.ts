// getToolCapabilities: which tools cannot work on this machine right now, why, and how to fix it,
// so the model stops retrying a tool that cannot succeed. Compact: with 170 tools, the available
// ones are a count (their names are in tools/list already); only the exceptions are listed, one
// entry per reason with the tools it applies to (gh logged out is one reason for every GitHub tool).
import * as v from "valibot";
import type { ProbeResult, ToolContext, ToolSummary } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { olderExtension } from "../platform/route-call.ts";
import { LspCapabilities, lspCapabilities } from "../../services/language/lsp-capabilities.ts";

/** Executables always reported, whether or not a registered tool needs them. */
const REPORTED_PROBES = ["git", "rg", "gh"];
/** The adapters' lookups run their check commands; this answer does not wait longer for them. */
const DEBUG_ADAPTER_WAIT_MS = 1_500;

const Unavailable = v.object({
  tools: v.array(v.string()),
  reason: v.pipe(v.string(), v.description("Why these tools cannot work now.")),
  suggestion: v.pipe(v.string(), v.description("How to make them available.")),
});
type Unavailable = v.InferOutput<typeof Unavailable>;
type Why = Omit<Unavailable, "tools">;

export default defineTool({
  name: "getToolCapabilities",
  title: "Tool capabilities",
  description:
    "Lists which bridge tools cannot work here and why (a missing executable, gh logged out, the VS Code extension, a flag, a plugin), with the fix, and which executables and language servers were found.",
  searchHint: "which tools work available unavailable capabilities missing requirements doctor language servers",
  input: v.strictObject({}),
  output: v.object({
    extensionConnected: v.boolean(),
    extensionProtocol: v.optional(
      v.pipe(v.string(), v.description("The connected extension's protocol; tools needing a later one are unavailable or headless.")),
    ),
    executables: v.pipe(
      v.record(v.string(), v.nullable(v.string())),
      v.description("Executable name -> its path on the bridge's PATH, or null when missing."),
    ),
    available: v.pipe(v.number(), v.description("How many tools work now.")),
    unavailable: v.array(Unavailable),
    fallback: v.pipe(v.array(v.string()), v.description("Tools that work headless now and better with the VS Code extension.")),
    lsp: LspCapabilities,
    debugAdapters: v.pipe(
      v.array(
        v.object({
          language: v.string(),
          label: v.string(),
          available: v.boolean(),
          command: v.optional(v.string()),
          install: v.optional(v.string()),
          checking: v.optional(v.literal(true)),
        }),
      ),
      v.description("Headless debugger adapters (startDebugging): found where, or how to install; checking: ask again."),
    ),
    offByConfiguration: v.pipe(
      v.array(v.object({ toolset: v.string(), tools: v.array(v.string()), enable: v.string() })),
      v.description("Tools this bridge's flags left out (--toolsets, --exclude-toolsets, --profile, --slim), and how to bring them back."),
    ),
    plugins: v.optional(
      v.pipe(
        v.array(
          v.object({
            name: v.string(),
            source: v.string(),
            version: v.optional(v.string()),
            state: v.picklist(["loaded", "failed"]),
            tools: v.array(v.string()),
            error: v.optional(v.string()),
            lastToolFailure: v.optional(v.object({ tool: v.string(), error: v.string() })),
          }),
        ),
        v.description("The --plugin plugins: loaded or failed (and why), their tools, the last call of theirs that threw or hung."),
      ),
    ),
    automation: v.optional(
      v.pipe(
        v.object({ outsideCommitsSeen: v.literal(false), reason: v.string(), fix: v.string() }),
        v.description("With an automation policy, when onGitCommit hooks cannot hear commits made outside the bridge: why, and the fix."),
      ),
    ),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(_input, ctx) {
    const tools = ctx.catalog.list();
    const names = [...new Set([...REPORTED_PROBES, ...tools.flatMap((t) => t.requires.probes ?? [])])];
    const found = new Map(await Promise.all(names.map(async (n) => [n, await ctx.probes.get(n)] as const)));
    const unavailable = groupByReason(
      tools.flatMap((tool) => {
        const why = whyUnavailable(tool, found, ctx);
        return why === undefined ? [] : [{ tool: tool.name, why }];
      }),
    );
    const connected = ctx.extension.connected;
    const protocol = ctx.extension.status().info?.protocolVersion;
    // Answered headless now: without VS Code, or with an extension older than their VS Code handler needs.
    const headlessNow = (t: ToolSummary) => !connected || olderExtension(t, ctx.extension) !== undefined;
    return {
      extensionConnected: connected,
      ...(connected && protocol !== undefined ? { extensionProtocol: protocol } : {}),
      executables: Object.fromEntries(names.map((n) => [n, found.get(n)?.path ?? null])),
      available: tools.length - unavailable.reduce((n, u) => n + u.tools.length, 0),
      unavailable,
      fallback: tools.filter((t) => t.requires.extension === "fallback" && headlessNow(t)).map((t) => t.name),
      lsp: await lspCapabilities(ctx),
      debugAdapters: await ctx.debug.adaptersWithin(DEBUG_ADAPTER_WAIT_MS),
      offByConfiguration: [...(ctx.catalog.offByConfiguration?.() ?? [])].map((off) => ({ ...off, tools: [...off.tools] })),
      ...pluginsOf(ctx),
      ...unheardCommits(ctx),
    };
  },
});

/** Only when a policy's hooks would miss commits: a bridge that hears them, or has no policy, says nothing. */
function unheardCommits(ctx: ToolContext) {
  const status = ctx.catalog.automation?.();
  const outside = status?.outsideCommits;
  if (status?.policy !== true || outside === undefined || outside.seen) return {};
  return { automation: { outsideCommitsSeen: false as const, reason: outside.reason, fix: outside.fix } };
}

/** Only when the bridge runs plugins: a bridge without them says nothing about them. */
function pluginsOf(ctx: ToolContext) {
  const plugins = ctx.catalog.plugins?.() ?? [];
  return plugins.length === 0
    ? {}
    : {
        plugins: plugins.map((p) => ({
          ...p,
          tools: [...p.tools],
          ...(p.lastToolFailure === undefined ? {} : { lastToolFailure: { ...p.lastToolFailure } }),
        })),
      };
}

/** One entry per reason and fix, in the order the reasons first appear. */
function groupByReason(each: readonly { tool: string; why: Why }[]): Unavailable[] {
  const groups = new Map<string, Unavailable>();
  for (const { tool, why } of each) {
    const key = `${why.reason}\0${why.suggestion}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { tools: [tool], ...why });
    else group.tools.push(tool);
  }
  return [...groups.values()];
}

function whyUnavailable(tool: ToolSummary, probes: ReadonlyMap<string, ProbeResult>, ctx: ToolContext): Why | undefined {
  const missing = (tool.requires.probes ?? []).find((p) => !probes.get(p)?.available);
  if (missing !== undefined) {
    return {
      reason: `needs \`${missing}\` on PATH`,
      suggestion: `Install ${missing}, make sure it is on the bridge's PATH, and restart the bridge.`,
    };
  }
  const notReady = (tool.requires.probes ?? []).map((p) => probes.get(p)?.notReady).find((n) => n !== undefined);
  if (notReady !== undefined) return { reason: notReady.reason, suggestion: notReady.suggestion };
  if (tool.requires.extension === "required" && !ctx.extension.connected) {
    return {
      reason: "needs the VS Code extension",
      suggestion: "Open the workspace in VS Code with the claude-ide-bridge extension installed; it connects on its own.",
    };
  }
  const older = tool.requires.extension === "required" ? olderExtension(tool, ctx.extension) : undefined;
  if (older !== undefined) {
    return {
      reason: `needs extension protocol ${older.need}; the connected VS Code extension speaks ${older.have}`,
      suggestion: "Update the extension: run claude-ide-bridge install-extension code (or code-server), then reload the VS Code window.",
    };
  }
  return undefined;
}
