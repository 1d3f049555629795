// A plugin tool's input given as plain JSON Schema, run by @cfworker/json-schema (no eval, so it
// works on Node, Bun and Deno alike, and it passes the JSON-Schema-Test-Suite) and wrapped as a
// valibot schema: the dispatcher validates every tool the same way, and its failures come out as
// valibot issues, so a model reads the same plain-words argument errors as for built-in tools
// ("unknown argument `file_path` (did you mean `path`?)", "missing required argument `path`").
import { type OutputUnit, Validator } from "@cfworker/json-schema";
import * as v from "valibot";
import { CARRIED_JSON_SCHEMA, type JsonObject } from "../tools/platform/json-schema.ts";
import type { Schema } from "../tools/platform/define-tool.ts";

type Issue = v.BaseIssue<unknown>;
type PathItem = v.IssuePathItem;

/** Keywords whose error only says a child failed; the child's own error is reported instead. */
const WRAPPERS = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "$ref",
  "$dynamicRef",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "contains",
  "unevaluatedItems",
]);

/** A valibot schema validating with `jsonSchema` (draft 2020-12 unless it names its own $schema). */
export function jsonSchemaInput(jsonSchema: JsonObject): Schema {
  const validator = new Validator(jsonSchema as ConstructorParameters<typeof Validator>[0], "2020-12", false);
  const own = {
    kind: "schema" as const,
    type: "json_schema",
    reference: jsonSchemaInput,
    expects: "Object",
    async: false as const,
    [CARRIED_JSON_SCHEMA]: jsonSchema,
    "~run"(dataset: v.UnknownDataset): v.OutputDataset<unknown, Issue> {
      const result = validator.validate(dataset.value);
      if (result.valid) return { typed: true, value: dataset.value };
      return { typed: false, value: dataset.value, issues: toIssues(result.errors, dataset.value) as [Issue, ...Issue[]] };
    },
  };
  // Adds the Standard Schema interface (`~standard`) valibot's own schemas have.
  return v._standardSchema<v.BaseSchema<unknown, unknown, Issue>>(own);
}

function toIssues(errors: readonly OutputUnit[], input: unknown): Issue[] {
  const issues: Issue[] = [];
  const unknownKeys = new Set<string>();
  for (const error of errors) {
    if (WRAPPERS.has(error.keyword)) continue;
    const at = pointer(error.instanceLocation);
    const named = /"([^"]*)"/.exec(error.error)?.[1];
    if ((error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") && named !== undefined) {
      unknownKeys.add([...at, named].join("/"));
      issues.push(keyIssue([...at, named], input, "never"));
    } else if (error.keyword === "required" && named !== undefined) {
      issues.push(keyIssue([...at, named], input, `"${named}"`));
    } else if (error.keyword === "false" && unknownKeys.has(at.join("/"))) {
      // The same unknown key again, as the `false` schema it met.
    } else {
      issues.push(valueIssue(error, at, input));
    }
  }
  if (issues.length === 0)
    issues.push(
      valueIssue(errors[0] ?? { keyword: "", instanceLocation: "#", keywordLocation: "#", error: "does not match the schema" }, [], input),
    );
  return issues;
}

/** Unknown (expected "never") or missing key, shaped as valibot's strict_object issue. */
function keyIssue(path: readonly string[], input: unknown, expected: string): Issue {
  return {
    kind: "schema",
    type: "strict_object",
    input,
    expected,
    received: expected === "never" ? `"${path[path.length - 1]}"` : "undefined",
    message: expected === "never" ? "unknown key" : "missing key",
    path: pathItems(path, input, { lastIsKey: true }),
  } as Issue;
}

function valueIssue(error: OutputUnit, at: readonly string[], input: unknown): Issue {
  const value = valueAt(input, at);
  const received =
    typeof value === "string" ? JSON.stringify(value) : value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  const detail = valibotShape(error);
  return {
    kind: detail.kind,
    type: detail.type,
    input: value,
    expected: detail.expected,
    received,
    message: `Invalid ${error.keyword}: ${error.error.replace(/\.$/, "")}`,
    path: pathItems(at, input, { lastIsKey: false }),
  } as Issue;
}

/** The issue type and expectation valibot would give, so the argument errors word it the same. */
function valibotShape(error: OutputUnit): { kind: "schema" | "validation"; type: string; expected: string | null } {
  const number = /(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\.?$/.exec(error.error)?.[1];
  switch (error.keyword) {
    case "type": {
      const expected = /Expected "([^"]+)"/.exec(error.error)?.[1];
      if (expected === "integer") return { kind: "validation", type: "integer", expected: null };
      return {
        kind: "schema",
        type: expected ?? "type",
        expected: expected === "object" ? "Object" : expected === "array" ? "Array" : (expected ?? null),
      };
    }
    case "minimum":
      return { kind: "validation", type: "min_value", expected: number === undefined ? null : `>=${number}` };
    case "maximum":
      return { kind: "validation", type: "max_value", expected: number === undefined ? null : `<=${number}` };
    case "minLength": {
      const min = /< (\d+)\)/.exec(error.error)?.[1];
      return { kind: "validation", type: "min_length", expected: min === undefined ? null : `>=${min}` };
    }
    case "maxLength": {
      const max = /> (\d+)\)/.exec(error.error)?.[1];
      return { kind: "validation", type: "max_length", expected: max === undefined ? null : `<=${max}` };
    }
    case "enum": {
      const list = /any of (\[.*\])/.exec(error.error)?.[1];
      const values = list === undefined ? [] : (JSON.parse(list) as unknown[]);
      return { kind: "schema", type: "picklist", expected: `(${values.map((x) => JSON.stringify(x)).join(" | ")})` };
    }
    case "const":
      return { kind: "schema", type: "literal", expected: /Expected "?(.+?)"?\.?$/.exec(error.error)?.[1] ?? null };
    default:
      return { kind: "validation", type: error.keyword, expected: null };
  }
}

/** "#/a/0/b~1c" -> ["a", "0", "b/c"]. */
function pointer(location: string): string[] {
  return location
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let here = input;
  for (const key of path) here = typeof here === "object" && here !== null ? (here as Record<string, unknown>)[key] : undefined;
  return here;
}

function pathItems(path: readonly string[], input: unknown, opts: { lastIsKey: boolean }): PathItem[] {
  const items: PathItem[] = [];
  let here = input;
  path.forEach((segment, i) => {
    const isArray = Array.isArray(here);
    const key = isArray ? Number(segment) : segment;
    const value = typeof here === "object" && here !== null ? (here as Record<string, unknown>)[segment] : undefined;
    const origin = opts.lastIsKey && i === path.length - 1 ? "key" : "value";
    items.push({ type: isArray ? "array" : "object", origin, input: here, key, value } as PathItem);
    here = value;
  });
  return items;
}
