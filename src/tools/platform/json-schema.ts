// valibot schemas as the JSON Schema tools/list advertises (draft 2020-12, MCP 2025-11-25's default).
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Schema } from "./define-tool.ts";

export type JsonObject = Record<string, unknown>;

/** The JSON Schema of `schema`, without the `$schema` key. */
export function jsonSchemaOf(schema: Schema): JsonObject {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "throw" });
  return rest as JsonObject;
}
