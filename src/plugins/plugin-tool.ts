// A plugin's registerTool(definition) made into a registry Tool: its shape checked (the definition
// comes from code the bridge did not write, so nothing about it is assumed), its name held to the
// manifest's prefix, its input schema taken as valibot or as plain JSON Schema (a worker sends a
// valibot schema converted), and its handler (the call sent to the plugin's worker) wrapped so that
// what it throws or how long it hangs is the plugin's failure, never the bridge's.
import { errorMessage, ToolError } from "../errors.ts";
import type { ToolContext } from "../capabilities/context.ts";
import {
  type ContentBlock,
  defineTool,
  type DeclaredAnnotations,
  type DeclaredRequirements,
  type Schema,
  type Tool,
} from "../tools/platform/define-tool.ts";
import type { JsonObject } from "../tools/platform/json-schema.ts";
import { jsonSchemaInput } from "./json-schema-input.ts";
import type { PluginToolDefinition, PluginToolResult } from "./plugin-api.ts";

/** Long enough for a plugin that shells out or asks a server; the bridge's --timeout wins when longer. */
export const DEFAULT_PLUGIN_TIMEOUT_MS = 60_000;

export interface PluginToolOptions {
  plugin: string;
  prefix: string;
  /** A call threw something other than a ToolError, or hung past its timeout. */
  onFailure(tool: string, error: string): void;
}

/** The Tool, or why the definition is refused (in words naming the field). */
export function pluginTool(definition: unknown, opts: PluginToolOptions): Tool {
  const fail = (why: string) => new Error(`registerTool(${describeName(definition)}): ${why}`);
  if (typeof definition !== "object" || definition === null)
    throw fail("takes an object (name, description, searchHint, inputSchema, annotations, handler)");
  const def = definition as Partial<Record<keyof PluginToolDefinition, unknown>>;
  for (const key of ["name", "description", "searchHint"] as const) if (typeof def[key] !== "string") throw fail(`${key} must be a string`);
  const name = def.name as string;
  if (!name.startsWith(opts.prefix) || name.length === opts.prefix.length)
    throw fail(`name must start with the manifest's toolNamePrefix "${opts.prefix}" and go on after it`);
  if (typeof def.handler !== "function") throw fail("handler must be a function");
  if (typeof def.annotations !== "object" || def.annotations === null) throw fail("annotations must be an object with readOnlyHint");
  if (def.title !== undefined && typeof def.title !== "string") throw fail("title must be a string");
  if (def.timeoutMs !== undefined && (typeof def.timeoutMs !== "number" || !Number.isInteger(def.timeoutMs) || def.timeoutMs < 1000))
    throw fail("timeoutMs must be an integer >= 1000");
  const input = inputOf(def.inputSchema, fail);
  const handler = def.handler as PluginHandler;
  return defineTool({
    name,
    ...(typeof def.title === "string" ? { title: def.title } : {}),
    description: def.description as string,
    searchHint: def.searchHint as string,
    input,
    annotations: { ...(def.annotations as DeclaredAnnotations) },
    ...(def.requires === undefined ? {} : { requires: requiresOf(def.requires, fail) }),
    timeoutMs: (def.timeoutMs as number | undefined) ?? DEFAULT_PLUGIN_TIMEOUT_MS,
    handler: (value: unknown, ctx: ToolContext) => runHandler(handler, { name, value, ctx, opts }),
  });
}

function describeName(definition: unknown): string {
  const name = typeof definition === "object" && definition !== null ? (definition as { name?: unknown }).name : undefined;
  return typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : "";
}

function inputOf(schema: unknown, fail: (why: string) => Error): Schema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw fail(
      'inputSchema must be a valibot schema (v.strictObject) or a JSON Schema object ({type: "object", properties, additionalProperties: false})',
    );
  const candidate = schema as { kind?: unknown; "~run"?: unknown };
  if (candidate.kind === "schema" && typeof candidate["~run"] === "function") return schema as Schema;
  try {
    return jsonSchemaInput(schema as JsonObject);
  } catch (err) {
    throw fail(`inputSchema is not a usable JSON Schema: ${errorMessage(err)}`);
  }
}

function requiresOf(value: unknown, fail: (why: string) => Error): DeclaredRequirements {
  const list = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === "string"));
  const r = value as { probes?: unknown; optionalProbes?: unknown };
  if (typeof value !== "object" || value === null || !list(r.probes) || !list(r.optionalProbes))
    throw fail("requires must be { probes?: string[], optionalProbes?: string[] }");
  return value as DeclaredRequirements;
}

/** Runs one call: in the plugin's worker, given the call's own context to serve the worker's requests with. */
type PluginHandler = (input: unknown, ctx: ToolContext) => Promise<PluginToolResult> | PluginToolResult;

async function runHandler(
  handler: PluginHandler,
  call: { name: string; value: unknown; ctx: ToolContext; opts: PluginToolOptions },
): Promise<string | { content: ContentBlock[] }> {
  const { name, ctx, opts } = call;
  const onAbort = () => {
    if ((ctx.signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError")
      opts.onFailure(name, "did not finish within its timeout (the call was answered with a timeout)");
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    return asResult(await handler(call.value, ctx));
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const message = errorMessage(err);
    opts.onFailure(name, message);
    throw new ToolError("tool_failed", `${name} (plugin ${opts.plugin}) failed: ${message}`, {
      suggestion: `The plugin's code threw; fix ${opts.plugin} (the bridge log has the details), or call another tool.`,
      cause: err,
    });
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** Plain text and well-formed content blocks as they are; any other value as compact JSON text. */
function asResult(value: PluginToolResult): string | { content: ContentBlock[] } {
  if (typeof value === "string") return value;
  const content =
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { content?: unknown }).content : undefined;
  if (Array.isArray(content) && content.length > 0 && content.every(isContentBlock)) return { content };
  return JSON.stringify(value) ?? "null";
}

function isContentBlock(block: unknown): block is ContentBlock {
  if (typeof block !== "object" || block === null) return false;
  const b = block as Record<string, unknown>;
  if (b.type === "text") return typeof b.text === "string";
  if (b.type === "image") return typeof b.data === "string" && typeof b.mimeType === "string";
  if (b.type === "resource_link") return typeof b.uri === "string" && typeof b.name === "string";
  return false;
}
