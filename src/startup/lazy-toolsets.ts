// The built-in tools, listed from the tool manifest at start (src/startup/tool-manifest.ts) and
// loaded per toolset on first use: a call of a toolset not loaded yet waits for its modules
// (gated-session.ts holds the request until then, so it runs exactly as a live tool's), and the
// registries then swap the stand-ins for the live tools. A toolset whose modules fail to import
// answers its calls with an isError that says so, and is tried again on its next call.
import type { ToolContext } from "../capabilities/context.ts";
import { errorMessage, ToolError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { validateArguments } from "../mcp/call/tool-call.ts";
import type { Tool } from "../tools/platform/define-tool.ts";
import type { ToolRegistry } from "../tools/platform/registry.ts";
import { routeCall } from "../tools/platform/route-call.ts";
import type { Toolset } from "../tools/platform/toolset.ts";
import { type ManifestTool, stubToolsets, type ToolManifest } from "./tool-manifest.ts";
import { IDE_LINK_SET } from "./toolset-loaders.ts";

export interface LazyToolsets {
  /** The served toolsets (src/tools/toolsets.ts's order), as stand-ins until loaded. */
  readonly toolsets: readonly Toolset[];
  /** Claude Code's IDE link's own toolset, likewise. */
  readonly ideLink: Toolset;
  /** A registry whose stand-ins become the live tools as their toolsets load. */
  attach(registry: ToolRegistry): void;
  /** Settles (never rejects) when `tool`'s toolset is loaded or failed to; undefined when there is nothing to wait for. */
  pending(tool: Tool | undefined): Promise<void> | undefined;
  /** The toolsets whose modules are loaded, and how many there are. */
  status(): { loaded: string[]; total: number };
}

export function lazyToolsets(
  manifest: ToolManifest,
  opts: { loaders: Readonly<Record<string, () => Promise<Toolset>>>; log: Logger },
): LazyToolsets {
  const live = new Map<string, Toolset>();
  const loading = new Map<string, Promise<Toolset>>();
  const registries: ToolRegistry[] = [];
  /** A load that failed while a call waited for it (pending): that call's answer says why, without importing again. */
  const failedForCall = new Map<string, Promise<Toolset>>();
  /** A stand-in, known by its handlers object (spread copies of a tool, --slim's or the IDE link's, keep it). */
  const stands = new WeakMap<Tool["handlers"], ManifestTool>();

  const liveTool = (entry: ManifestTool): Tool | undefined => live.get(entry.set)?.tools.find((t) => t.name === entry.name);
  const load = (set: string): Promise<Toolset> => {
    const done = live.get(set);
    if (done !== undefined) return Promise.resolve(done);
    let promise = loading.get(set);
    if (promise === undefined) {
      const loader = opts.loaders[set];
      promise = (loader ? loader() : Promise.reject(new Error(`no loader for toolset ${set}`))).then(
        (toolset) => {
          loading.delete(set);
          live.set(set, toolset);
          for (const registry of registries) registry.replaceTools(swapIn);
          return toolset;
        },
        (err: unknown) => {
          // Tried again on the next call: a module that failed once (a file being replaced) may load then.
          loading.delete(set);
          opts.log.error(`the ${set} tools could not be loaded`, { error: errorMessage(err) });
          throw err;
        },
      );
      loading.set(set, promise);
    }
    return promise;
  };
  const swapIn = (tool: Tool): Tool | undefined => {
    const entry = stands.get(tool.handlers);
    const found = entry && liveTool(entry);
    if (found === undefined) return undefined;
    return found.slim === tool.slim ? found : { ...found, slim: tool.slim };
  };
  // Reached when a call was not held until its toolset loaded (a prompt running tools, a call in
  // flight as it loaded): checks and routes it as the live tool would.
  const run = async (entry: ManifestTool, input: unknown, ctx: ToolContext) => {
    const failed = failedForCall.get(entry.set);
    failedForCall.delete(entry.set);
    await (failed ?? load(entry.set)).catch((err: unknown) => {
      throw new ToolError(
        "toolset_not_loaded",
        `${entry.name} is unavailable: the bridge could not load its ${entry.set} tools (${errorMessage(err)})`,
        {
          suggestion: "The other toolsets still work. Reinstall or rebuild the bridge (npm ci), restart it, and call again.",
          cause: err,
        },
      );
    });
    const tool = liveTool(entry);
    if (tool === undefined) {
      throw new ToolError("internal_error", `${entry.name} is listed, but the ${entry.set} toolset loaded no tool of that name`, {
        suggestion: "The tool manifest is out of date: run `npm run tool-manifest` and rebuild the bridge.",
      });
    }
    const checked = validateArguments(tool, input);
    if (!checked.ok) throw asToolError(checked.result);
    return routeCall(tool).run(checked.value, ctx);
  };
  const stubs = stubToolsets(manifest, {
    run,
    liveOutput: (entry) => liveTool(entry)?.output,
    made: (tool, entry) => stands.set(tool.handlers, entry),
  });
  const ideLink = stubs.find((t) => t.name === IDE_LINK_SET);
  if (ideLink === undefined) throw new Error(`the tool manifest has no ${IDE_LINK_SET} toolset: run \`npm run tool-manifest\``);
  return {
    toolsets: stubs.filter((t) => t !== ideLink),
    ideLink,
    attach(registry) {
      registries.push(registry);
      registry.replaceTools(swapIn);
    },
    pending(tool) {
      const entry = tool && stands.get(tool.handlers);
      if (entry === undefined || live.has(entry.set)) return undefined;
      const attempt = load(entry.set);
      return attempt.then(
        () => undefined,
        () => {
          failedForCall.set(entry.set, attempt);
        },
      );
    },
    status: () => ({ loaded: [...live.keys()], total: stubs.length }),
  };
}

/** An argument error as validateArguments words it, thrown from the handler: the same result (its last line is the suggestion). */
function asToolError(result: { content: readonly { type: string; text?: string }[] }): ToolError {
  const text = result.content.map((block) => block.text ?? "").join("\n");
  const cut = text.lastIndexOf("\n");
  return new ToolError("invalid_arguments", cut < 0 ? text : text.slice(0, cut), { suggestion: cut < 0 ? "" : text.slice(cut + 1) });
}
