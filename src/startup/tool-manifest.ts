// What tools/list, the instructions and the registry's checks need of the built-in tools, without
// their handlers: names, descriptions, hints, annotations, requirements and input schemas as JSON.
// The bridge lists its tools from this at start and imports a toolset's modules on its first call
// (src/startup/lazy-toolsets.ts): the handlers and everything they import were about half of the
// Node bundle's bytes and most of its start-up compile time (bench/startup-profile.mjs).
// The data is tool-manifest.generated.ts, written by `npm run tool-manifest` from the live
// definitions (and again into dist/ by every build); a unit test fails when the two differ.
import * as v from "valibot";
import type { ToolContext, ToolRequirements } from "../capabilities/context.ts";
import type { Schema, Tool, ToolAnnotations } from "../tools/platform/define-tool.ts";
import { CARRIED_JSON_SCHEMA, jsonSchemaOf, type JsonObject } from "../tools/platform/json-schema.ts";
import type { Toolset } from "../tools/platform/toolset.ts";

/** One tool as the manifest holds it: a JSON value, one line of the generated file. */
export interface ManifestTool {
  /** The served toolset (src/tools/toolsets.ts's order) whose modules hold the handlers. */
  set: string;
  name: string;
  title?: string;
  description: string;
  searchHint: string;
  /** The input's JSON Schema as jsonSchemaOf gives it (tools/list trims it as for a live tool). */
  input: JsonObject;
  /** The output schema's keys, for the registry's checks; the schema itself is the live tool's. */
  outputKeys?: string[];
  annotations: ToolAnnotations;
  requires: ToolRequirements;
  alwaysLoad?: true;
  slim?: true;
  timeoutMs?: number;
  largeResult?: true;
}

export interface ToolManifest {
  toolsets: readonly { name: string; purpose: string }[];
  tools: readonly ManifestTool[];
}

/** The manifest of `toolsets`, from their live definitions. */
export function manifestOf(toolsets: readonly Toolset[]): ToolManifest {
  const tools: ManifestTool[] = [];
  for (const toolset of toolsets) {
    for (const tool of toolset.tools) {
      const entry: ManifestTool = {
        set: toolset.name,
        name: tool.name,
        ...(tool.title !== undefined && { title: tool.title }),
        description: tool.description,
        searchHint: tool.searchHint,
        input: jsonSchemaOf(tool.input),
        annotations: tool.annotations,
        requires: tool.requires,
      };
      if (tool.output !== undefined) entry.outputKeys = Object.keys(propertiesOf(jsonSchemaOf(tool.output)));
      if (tool.alwaysLoad) entry.alwaysLoad = true;
      if (tool.slim) entry.slim = true;
      if (tool.timeoutMs !== undefined) entry.timeoutMs = tool.timeoutMs;
      if (tool.largeResult) entry.largeResult = true;
      tools.push(entry);
    }
  }
  return { toolsets: toolsets.map((t) => ({ name: t.name, purpose: t.purpose })), tools };
}

/** The generated file's two exports, back to a manifest. */
export function parseManifest(toolsets: readonly { name: string; purpose: string }[], toolLines: readonly string[]): ToolManifest {
  return { toolsets, tools: toolLines.map((line) => JSON.parse(line) as ManifestTool) };
}

/**
 * Runs a tool whose modules are not loaded yet: loads its toolset, then answers as the live tool
 * (argument check, VS Code or headless). Given by lazy-toolsets.ts.
 */
export type StubRunner = (tool: ManifestTool, input: unknown, ctx: ToolContext) => Promise<unknown>;

interface StubOptions {
  run: StubRunner;
  /** The live tool's output schema, once its toolset is loaded. */
  liveOutput(tool: ManifestTool): Schema | undefined;
  /** Told of each stand-in made. */
  made?(stub: Tool, entry: ManifestTool): void;
}

/**
 * The manifest's toolsets as the registry takes them: each tool a stand-in with the live tool's
 * metadata, whose one handler is `run`. Its input schema carries the JSON Schema (listed and
 * checked as written) and lets every value through: `run` checks the arguments against the live
 * schema once the toolset is loaded. Its output schema checks with the live tool's.
 */
export function stubToolsets(manifest: ToolManifest, opts: StubOptions): Toolset[] {
  const bySet = new Map<string, Tool[]>();
  for (const entry of manifest.tools) {
    const tools = bySet.get(entry.set) ?? [];
    const stub = stubTool(entry, opts);
    opts.made?.(stub, entry);
    tools.push(stub);
    bySet.set(entry.set, tools);
  }
  return manifest.toolsets.map((t) => ({ name: t.name, purpose: t.purpose, tools: bySet.get(t.name) ?? [] }));
}

function stubTool(entry: ManifestTool, opts: StubOptions): Tool {
  const output =
    entry.outputKeys === undefined
      ? undefined
      : carrying({ type: "object", properties: Object.fromEntries(entry.outputKeys.map((k) => [k, {}])) }, (dataset, config) => {
          const live = opts.liveOutput(entry);
          if (live === undefined) return { typed: false, value: dataset.value, issues: [notLoadedIssue(dataset.value)] };
          return live["~run"](dataset, config);
        });
  return {
    name: entry.name,
    title: entry.title,
    description: entry.description,
    searchHint: entry.searchHint,
    input: carrying(entry.input, (dataset) => ({ typed: true, value: dataset.value })),
    output,
    annotations: entry.annotations,
    requires: entry.requires,
    alwaysLoad: entry.alwaysLoad === true,
    slim: entry.slim === true,
    timeoutMs: entry.timeoutMs,
    largeResult: entry.largeResult === true,
    handlers: { headless: (input, ctx) => opts.run(entry, input, ctx), extension: undefined },
  };
}

type Issue = v.BaseIssue<unknown>;
type Run = (dataset: v.UnknownDataset, config: v.Config<Issue>) => v.OutputDataset<unknown, Issue>;

/** A valibot schema that carries `jsonSchema` (what tools/list and the registry read) and checks with `run`. */
function carrying(jsonSchema: JsonObject, run: Run): Schema {
  const own = {
    kind: "schema" as const,
    type: "tool_manifest",
    reference: carrying,
    expects: "Object",
    async: false as const,
    [CARRIED_JSON_SCHEMA]: jsonSchema,
    "~run": run,
  };
  return v._standardSchema<v.BaseSchema<unknown, unknown, Issue>>(own);
}

function notLoadedIssue(input: unknown): Issue {
  return {
    kind: "schema",
    type: "tool_manifest",
    input,
    expected: null,
    received: "unchecked",
    message: "the tool's module is not loaded, so its output cannot be checked",
  };
}

function propertiesOf(schema: JsonObject): JsonObject {
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null ? (properties as JsonObject) : {};
}

/** The generated module's text: the toolsets, then one JSON line per tool (diffs show the tools that changed). */
export function manifestModule(manifest: ToolManifest): string {
  const toolsets = manifest.toolsets.map(
    (t) => `  ${JSON.stringify(t).replace(/^\{"name":(.*),"purpose":(.*)\}$/, "{ name: $1, purpose: $2 }")},`,
  );
  const tools = manifest.tools.map((t) => `  ${JSON.stringify(JSON.stringify(t))},`);
  return [
    "// Generated from the tools' definitions by `npm run tool-manifest` (src/startup/tool-manifest.ts says why);",
    "// test/unit/startup/tool-manifest.test.ts fails when it differs from them. Do not edit by hand.",
    "export const TOOLSET_PURPOSES: readonly { name: string; purpose: string }[] = [",
    ...toolsets,
    "];",
    "",
    "export const TOOL_LINES: readonly string[] = [",
    ...tools,
    "];",
    "",
  ].join("\n");
}

/**
 * What the shim's prediction of the instructions needs (src/startup/predicted-initialize.ts): each
 * toolset's purpose, its tools' names and which are slim. A few KB, where the manifest is 180: the
 * shim loads it while its client waits.
 */
export function toolIndexModule(manifest: ToolManifest): string {
  const sets = manifest.toolsets.map((t) => {
    const tools = manifest.tools.filter((tool) => tool.set === t.name);
    const entry = {
      name: t.name,
      purpose: t.purpose,
      tools: tools.map((tool) => tool.name),
      slim: tools.filter((tool) => tool.slim).map((tool) => tool.name),
    };
    return `  ${JSON.stringify(entry)},`;
  });
  return [
    "// Generated from the tools' definitions by `npm run tool-manifest` (src/startup/tool-manifest.ts says why);",
    "// test/unit/startup/tool-manifest.test.ts fails when it differs from them. Do not edit by hand.",
    "export const TOOL_INDEX: readonly { name: string; purpose: string; tools: readonly string[]; slim: readonly string[] }[] = [",
    ...sets,
    "];",
    "",
  ].join("\n");
}
