// valibot schemas as the JSON Schema tools/list advertises (draft 2020-12, MCP 2025-11-25's default).
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Schema } from "./define-tool.ts";

export type JsonObject = Record<string, unknown>;

/**
 * Where a schema that is not valibot's own carries the JSON Schema it validates against (a
 * plugin's plain JSON Schema input, src/plugins/json-schema-input.ts): listed as written.
 */
export const CARRIED_JSON_SCHEMA = "~jsonSchema";

/** The JSON Schema of `schema`, without the `$schema` key. */
export function jsonSchemaOf(schema: Schema): JsonObject {
  const carried: unknown = (schema as { [CARRIED_JSON_SCHEMA]?: unknown })[CARRIED_JSON_SCHEMA];
  if (typeof carried === "object" && carried !== null) {
    const { $schema: _dialect, ...own } = carried as JsonObject;
    return own;
  }
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "throw" });
  return rest as JsonObject;
}
