// valibot schemas as the JSON Schema tools/list advertises (draft 2020-12, MCP 2025-11-25's default).
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Schema } from "./define-tool.ts";

export type JsonObject = Record<string, unknown>;

/**
 * Where a schema that is not valibot's own carries the JSON Schema it validates against (a
 * plugin's plain JSON Schema input, src/plugins/json-schema-input.ts): listed as written.
 */
export const CARRIED_JSON_SCHEMA = "~jsonSchema";

/** valibot's object schemas: each converts to `type: "object"` with its entries as properties. */
const VALIBOT_OBJECTS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

/** What the registry checks of a schema at start, read without converting it (conversion waits for the first tools/list). */
export interface ObjectShape {
  /** Converts to `type: "object"`. */
  object: boolean;
  /** Refuses unknown keys (`additionalProperties: false`). */
  strict: boolean;
  /** Its properties' names. */
  keys: readonly string[];
}

/** The same facts jsonSchemaOf's result would give (a unit test compares the two for every built-in tool). */
export function objectShapeOf(schema: Schema): ObjectShape {
  const carried = carriedJsonSchema(schema);
  if (carried !== undefined) {
    const properties = carried.properties;
    const keys = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
    return { object: carried.type === "object", strict: carried.additionalProperties === false, keys };
  }
  const object = VALIBOT_OBJECTS.has(schema.type);
  const entries = (schema as { entries?: unknown }).entries;
  const keys = object && typeof entries === "object" && entries !== null ? Object.keys(entries) : [];
  return { object, strict: schema.type === "strict_object", keys };
}

/** The JSON Schema of `schema`, without the `$schema` key. */
export function jsonSchemaOf(schema: Schema): JsonObject {
  const carried = carriedJsonSchema(schema);
  if (carried !== undefined) {
    const { $schema: _dialect, ...own } = carried;
    return own;
  }
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "throw" });
  return rest as JsonObject;
}

function carriedJsonSchema(schema: Schema): JsonObject | undefined {
  const carried: unknown = (schema as { [CARRIED_JSON_SCHEMA]?: unknown })[CARRIED_JSON_SCHEMA];
  return typeof carried === "object" && carried !== null ? (carried as JsonObject) : undefined;
}
