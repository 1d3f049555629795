// The shape of a tool: data, one per file (DESIGN.md, "Tools are data").
import type * as v from "valibot";
import type { ToolContext, ToolRequirements } from "./context.ts";

export type Schema = v.GenericSchema;

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string };

/** What a handler returns: with an output schema, the structured value; else text or blocks. */
export type ToolReturn<O extends Schema | undefined> = O extends Schema
  ? v.InferOutput<O>
  : string | { content: ContentBlock[] };

export interface ToolDefinition<I extends Schema, O extends Schema | undefined> {
  /** 1–128 chars of [A-Za-z0-9_.-]; camelCase as in the original catalogue. */
  name: string;
  title?: string;
  /** At most 200 characters (checked by the registry). */
  description: string;
  /** Must be a valibot object schema; validated once by the dispatcher. */
  input: I;
  /** When present: becomes outputSchema, and results carry structuredContent. */
  output?: O;
  annotations?: ToolAnnotations;
  requires?: ToolRequirements;
  /** Can return more than 50 KB; tools/list then sets `_meta["anthropic/maxResultSizeChars"]`. */
  largeResult?: boolean;
  handler(input: v.InferOutput<I>, ctx: ToolContext): Promise<ToolReturn<O>>;
}

/** A tool with its types erased, as the registry stores it. */
export interface Tool {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly input: Schema;
  readonly output: Schema | undefined;
  readonly annotations: ToolAnnotations;
  readonly requires: ToolRequirements;
  readonly largeResult: boolean;
  handler(input: unknown, ctx: ToolContext): Promise<unknown>;
}

export function defineTool<I extends Schema, O extends Schema | undefined = undefined>(def: ToolDefinition<I, O>): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    input: def.input,
    output: def.output,
    annotations: def.annotations ?? {},
    requires: def.requires ?? {},
    largeResult: def.largeResult ?? false,
    // The dispatcher validates `input` against `def.input` before calling, so the erased
    // argument has exactly the handler's input type.
    handler: (input, ctx) => def.handler(input as v.InferOutput<I>, ctx),
  };
}
