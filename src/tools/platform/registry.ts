// Builds the tool registry once at start from the toolsets: checks every tool against the contract
// (src/tools/platform/tool-invariants.ts), and serves the tools/list entries, with the `_meta`
// Claude Code's tool search reads. Converting 170 valibot schemas to JSON Schema was most of the
// start-up's cost, so the built-in tools' entries are made on the first tools/list and kept. Plugins
// (src/plugins/) add and replace their own toolsets at runtime: each change is checked whole and
// swapped in at once, so a call sees the old tools or the new ones, never a list with some missing.
import { BridgeError } from "../../errors.ts";
import type { ToolCatalog, ToolSummary } from "../../capabilities/context.ts";
import type { Tool } from "./define-tool.ts";
import { jsonSchemaOf, objectShapeOf, type JsonObject } from "./json-schema.ts";
import { listedInputSchema } from "./listed-schema.ts";
import { assertValidTool, assertValidToolsets, type SchemaShapes } from "./tool-invariants.ts";
import type { Toolset } from "./toolset.ts";
import { selectToolsets, type OffByConfiguration, type ToolsetChoice } from "./toolset-selection.ts";

/** Claude Code persists text results over 50,000 chars to disk unless the tool raises this (to 500,000). */
const CLAUDE_CODE_DEFAULT_RESULT_CHARS = 50_000;
const CLAUDE_CODE_MAX_RESULT_CHARS = 500_000;

export interface ToolListEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  _meta: JsonObject;
}

export interface RegistryOptions extends Omit<ToolsetChoice, "slim"> {
  slim: boolean;
  /** The bridge's cap on every result (--max-result-size), in characters. */
  maxResultChars: number;
}

export class ToolRegistry implements ToolCatalog {
  private byName = new Map<string, Tool>();
  /** The tools in tools/list's order. */
  private listed: Tool[] = [];
  /** Each tool's entry, once made: the plugins' when they are added (a bad schema refuses the toolset), the others' on the first list. */
  private readonly listEntry = new WeakMap<Tool, ToolListEntry>();
  /** `listed` as entries, until it changes. */
  private listEntries: ToolListEntry[] | undefined;
  /** The configured toolsets, then the plugins' in the order they were added. */
  private builtIn: readonly Toolset[];
  private readonly added = new Map<string, Toolset>();
  /** What the configuration left out, and the flag that brings it back. */
  readonly off: readonly OffByConfiguration[];
  /** Bumped when the tool list changes, so old pagination cursors are refused. */
  version = 1;
  /** Whether the tools only VS Code can answer are in tools/list (the bridge hides them while it is away). */
  private extensionToolsListed = true;

  constructor(
    toolsets: readonly Toolset[],
    private readonly opts: RegistryOptions,
  ) {
    assertValidToolsets(toolsets);
    const selection = selectToolsets(toolsets, opts);
    for (const toolset of selection.toolsets) for (const tool of toolset.tools) this.add(tool);
    this.builtIn = selection.toolsets;
    this.off = selection.off;
  }

  /** The toolsets as registered (after --toolsets, --exclude-toolsets, --profile and --slim, then plugins'), for the instructions. */
  get toolsets(): readonly Toolset[] {
    return [...this.builtIn, ...this.added.values()];
  }

  /**
   * Adds a toolset, replaces the one of the same name added before, or (undefined) removes it.
   * Checked whole first (the invariants, names unique across the registry): on a problem it throws
   * a BridgeError and nothing changes. Calls already running keep the Tool they were given.
   */
  replaceToolset(name: string, toolset: Toolset | undefined): void {
    const previous = this.added.get(name);
    const byName = new Map(this.byName);
    for (const tool of previous?.tools ?? []) byName.delete(tool.name);
    if (toolset !== undefined) {
      if (this.builtIn.some((t) => t.name === toolset.name))
        throw new BridgeError("startup_failed", `Toolset "${toolset.name}" is a built-in toolset's name`);
      assertValidToolsets([...this.toolsets.filter((t) => t.name !== previous?.name), toolset]);
      for (const tool of toolset.tools) {
        assertValidTool(tool, shapesOf(tool));
        if (byName.has(tool.name)) throw new BridgeError("startup_failed", `Tool "${tool.name}" is already registered`);
        byName.set(tool.name, tool);
        // Converted now: a schema that cannot be listed refuses the toolset before anything changes.
        this.listEntry.set(tool, toListEntry(tool, this.opts.maxResultChars));
      }
    }
    // Everything is checked: from here on nothing throws, and each field is swapped whole.
    const own = new Set(previous?.tools ?? []);
    this.listed = [...this.listed.filter((t) => !own.has(t)), ...(toolset?.tools ?? [])];
    this.listEntries = undefined;
    this.byName = byName;
    if (toolset === undefined) this.added.delete(name);
    else this.added.set(name, toolset);
    this.version += 1;
  }

  /**
   * Swaps tools for others of the same name and listing: a toolset's live tools for the stand-ins
   * listed from the tool manifest (src/startup/lazy-toolsets.ts) once its modules are loaded. The
   * list, its entries and its version stay as they are; a call already running keeps its Tool.
   */
  replaceTools(replacement: (tool: Tool) => Tool | undefined): void {
    const swapped = new Map<Tool, Tool>();
    for (const tool of this.byName.values()) {
      const next = replacement(tool);
      if (next === undefined || next === tool || next.name !== tool.name) continue;
      swapped.set(tool, next);
      const entry = this.listEntry.get(tool);
      if (entry !== undefined) this.listEntry.set(next, entry);
    }
    if (swapped.size === 0) return;
    const swap = (tool: Tool) => swapped.get(tool) ?? tool;
    this.listed = this.listed.map(swap);
    this.byName = new Map([...this.byName].map(([name, tool]) => [name, swap(tool)]));
    this.builtIn = this.builtIn.map((toolset) =>
      toolset.tools.some((tool) => swapped.has(tool)) ? { ...toolset, tools: toolset.tools.map(swap) } : toolset,
    );
  }

  offByConfiguration(): readonly OffByConfiguration[] {
    return this.off;
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  /** The tools/list answer: every tool, less those only VS Code answers while they are hidden. */
  entries(): readonly ToolListEntry[] {
    this.listEntries ??= this.listed.map((tool) => this.entryOf(tool));
    if (this.extensionToolsListed) return this.listEntries;
    return this.listEntries.filter((entry) => this.byName.get(entry.name)?.requires.extension !== "required");
  }

  /** The names entries() would list, in its order, without making an entry. */
  listedNames(): string[] {
    const shown = this.extensionToolsListed ? this.listed : this.listed.filter((tool) => tool.requires.extension !== "required");
    return shown.map((tool) => tool.name);
  }

  private entryOf(tool: Tool): ToolListEntry {
    let entry = this.listEntry.get(tool);
    if (entry === undefined) {
      entry = toListEntry(tool, this.opts.maxResultChars);
      this.listEntry.set(tool, entry);
    }
    return entry;
  }

  /**
   * Lists or hides the tools that only the VS Code extension can answer. A hidden one stays callable
   * (a client may call before it refreshes its list): the call says the extension is not connected.
   * Returns whether tools/list's answer changed.
   */
  listExtensionTools(listed: boolean): boolean {
    if (listed === this.extensionToolsListed) return false;
    this.extensionToolsListed = listed;
    if (![...this.byName.values()].some((tool) => tool.requires.extension === "required")) return false;
    this.version += 1;
    return true;
  }

  list(): readonly ToolSummary[] {
    return [...this.byName.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      searchHint: tool.searchHint,
      requires: tool.requires,
      readOnly: tool.annotations.readOnlyHint === true,
    }));
  }

  private add(tool: Tool): void {
    assertValidTool(tool, shapesOf(tool));
    if (this.byName.has(tool.name)) throw new BridgeError("startup_failed", `Tool "${tool.name}" is registered twice`);
    this.byName.set(tool.name, tool);
    this.listed.push(tool);
    this.listEntries = undefined;
    this.version += 1;
  }
}

function shapesOf(tool: Tool): SchemaShapes {
  return { input: objectShapeOf(tool.input), output: tool.output ? objectShapeOf(tool.output) : undefined };
}

function toListEntry(tool: Tool, maxResultChars: number): ToolListEntry {
  const meta: JsonObject = { "anthropic/searchHint": tool.searchHint };
  if (tool.alwaysLoad) meta["anthropic/alwaysLoad"] = true;
  // What the bridge really lets through (every result is cut to the cap), when that is more than
  // Claude Code would keep in the conversation by default.
  const cap = Math.min(maxResultChars, CLAUDE_CODE_MAX_RESULT_CHARS);
  if (tool.largeResult && cap > CLAUDE_CODE_DEFAULT_RESULT_CHARS) meta["anthropic/maxResultSizeChars"] = cap;
  const entry: ToolListEntry = {
    name: tool.name,
    description: tool.description,
    inputSchema: listedInputSchema(jsonSchemaOf(tool.input)),
    _meta: meta,
  };
  if (tool.title) entry.title = tool.title;
  // No outputSchema is listed (README, "How small tools/list is"): Claude Code never shows one to the
  // model, and a listed one is 25 % of the catalogue's bytes. Results still carry structuredContent
  // (MCP lets a tool without an outputSchema send it), checked against the full schema in the tests.
  // The title is listed once, at the top level (MCP 2025-06-18 and later; annotations.title is its older spelling).
  const annotations: JsonObject = { ...tool.annotations };
  if (Object.keys(annotations).length > 0) entry.annotations = annotations;
  return entry;
}
