// What tools/list shows of a tool's input schema: every byte there is read on each connection and,
// for clients that load tools up front, sits in the model's context on every turn. The dispatcher
// validates calls with the full valibot schema, so the listing keeps only what a caller needs to form
// a call: types, structure, required keys, enums, numeric bounds and the parameter descriptions.
// Left out: string lengths and patterns and array maxima (a call that breaks them gets the
// validator's clear error), empty `required` lists, and the two-branch anyOf of a nullable value
// (written as a type list instead, the same schema).
import type { JsonObject } from "./json-schema.ts";

/** Keywords the server enforces and a caller never needs to see in advance. */
const VALIDATION_ONLY = new Set(["maxLength", "minLength", "pattern", "maxItems"]);

/** Subschema-holding keywords whose value is one schema. */
const ONE_SCHEMA = ["items", "additionalProperties", "not", "contains", "propertyNames"];
/** Subschema-holding keywords whose value is a list of schemas. */
const SCHEMA_LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Subschema-holding keywords whose value maps names to schemas (the names are data, never keywords). */
const SCHEMA_MAP = ["properties", "$defs", "patternProperties"];

/** The input schema as listed: `schema` without the validation-only keywords, at every level of nesting. */
export function listedInputSchema(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  const nullable = nullableType(schema);
  if (nullable !== undefined) return listedInputSchema({ ...withoutKey(schema, "anyOf"), type: [nullable, "null"] });
  for (const [key, value] of Object.entries(schema)) {
    if (VALIDATION_ONLY.has(key)) continue;
    if (key === "required" && Array.isArray(value) && value.length === 0) continue;
    if (ONE_SCHEMA.includes(key) && isObject(value)) out[key] = listedInputSchema(value);
    else if (SCHEMA_LIST.includes(key) && Array.isArray(value))
      out[key] = value.map((item) => (isObject(item) ? listedInputSchema(item) : item));
    else if (SCHEMA_MAP.includes(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isObject(sub) ? listedInputSchema(sub) : sub]));
    else out[key] = value;
  }
  return out;
}

/** "string" for `anyOf: [{type: "string"}, {type: "null"}]`, the same schema as `type: ["string", "null"]` in fewer bytes. */
function nullableType(schema: JsonObject): string | undefined {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || "type" in schema) return undefined;
  const [a, b] = anyOf as unknown[];
  const bare = (s: unknown): string | undefined =>
    isObject(s) && Object.keys(s).length === 1 && typeof s.type === "string" ? s.type : undefined;
  if (bare(b) === "null" && bare(a) !== undefined && bare(a) !== "null") return bare(a);
  if (bare(a) === "null" && bare(b) !== undefined && bare(b) !== "null") return bare(b);
  return undefined;
}

function withoutKey(schema: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
