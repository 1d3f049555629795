// Builds the tool registry once at start: checks every tool, converts its valibot schemas to
// JSON Schema a single time, and keeps the tools/list entries ready to serve.
import { toJsonSchema } from "@valibot/to-json-schema";
import { BridgeError } from "../errors.ts";
import type { ToolCatalog, ToolSummary } from "./context.ts";
import type { Schema, Tool } from "./define-tool.ts";
import { SLIM_TOOL_NAMES } from "./slim.ts";

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
export const MAX_DESCRIPTION_CHARS = 200;
/** Claude Code persists text results over 50,000 chars to disk unless the tool raises this. */
const CLAUDE_CODE_RESULT_CAP = 500_000;

export type JsonObject = Record<string, unknown>;

export interface ToolListEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  _meta?: JsonObject;
}

export interface RegistryOptions {
  slim: boolean;
  /** The bridge's own cap on a result (--max-result-size), in characters. */
  maxResultChars: number;
}

export class ToolRegistry implements ToolCatalog {
  private readonly byName = new Map<string, Tool>();
  private readonly listEntries: ToolListEntry[] = [];
  /** Bumped when the tool list changes, so old pagination cursors are refused. */
  version = 1;

  constructor(tools: readonly Tool[], private readonly opts: RegistryOptions) {
    for (const tool of tools) this.add(tool);
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  entries(): readonly ToolListEntry[] {
    return this.listEntries;
  }

  list(): readonly ToolSummary[] {
    return [...this.byName.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      requires: tool.requires,
      readOnly: tool.annotations.readOnlyHint === true,
    }));
  }

  private add(tool: Tool): void {
    if (this.opts.slim && !SLIM_TOOL_NAMES.has(tool.name)) return;
    assertValidTool(tool);
    if (this.byName.has(tool.name)) {
      throw new BridgeError("startup_failed", `Tool "${tool.name}" is registered twice`);
    }
    this.byName.set(tool.name, tool);
    this.listEntries.push(toListEntry(tool, this.opts.maxResultChars));
    this.version += 1;
  }
}

export function assertValidTool(tool: Tool): void {
  const fail = (why: string) => new BridgeError("startup_failed", `Tool "${tool.name}": ${why}`);
  if (!TOOL_NAME.test(tool.name)) throw fail("name must be 1-128 chars of [A-Za-z0-9_.-]");
  if (tool.description.trim().length === 0) throw fail("description is empty");
  if (tool.description.length > MAX_DESCRIPTION_CHARS) {
    throw fail(`description is ${tool.description.length} chars; at most ${MAX_DESCRIPTION_CHARS}`);
  }
  if (jsonSchemaOf(tool.input).type !== "object") throw fail("input must be an object schema");
  if (tool.output && jsonSchemaOf(tool.output).type !== "object") throw fail("output must be an object schema");
}

function toListEntry(tool: Tool, maxResultChars: number): ToolListEntry {
  const entry: ToolListEntry = {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
  };
  if (tool.title) entry.title = tool.title;
  if (tool.output) entry.outputSchema = jsonSchemaOf(tool.output);
  const annotations: JsonObject = { ...tool.annotations };
  if (tool.title) annotations.title = tool.title;
  if (Object.keys(annotations).length > 0) entry.annotations = annotations;
  if (tool.largeResult) {
    entry._meta = { "anthropic/maxResultSizeChars": Math.min(maxResultChars, CLAUDE_CODE_RESULT_CAP) };
  }
  return entry;
}

/** JSON Schema (draft 2020-12, MCP 2025-11-25's default) without the `$schema` key. */
export function jsonSchemaOf(schema: Schema): JsonObject {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "throw" });
  return rest as JsonObject;
}
