// A plugin's plain JSON Schema input validates through @cfworker/json-schema and fails with the same
// plain words as a built-in tool's valibot schema.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { describeArgumentIssues } from "../../../src/mcp/call/argument-errors.ts";
import { jsonSchemaInput } from "../../../src/plugins/json-schema-input.ts";
import { jsonSchemaOf } from "../../../src/tools/platform/json-schema.ts";

const SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string", minLength: 1 },
    startLine: { type: "integer", minimum: 1 },
    mode: { enum: ["fast", "full"] },
    flags: { type: "array", items: { type: "string" } },
  },
  required: ["path"],
  additionalProperties: false,
};
const VALIBOT = v.strictObject({
  path: v.pipe(v.string(), v.minLength(1)),
  startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  mode: v.optional(v.picklist(["fast", "full"])),
  flags: v.optional(v.array(v.string())),
});
const SHAPE = { names: ["path", "startLine", "mode", "flags"], required: new Set(["path"]) };

function words(schema: v.GenericSchema, input: unknown): string {
  const result = v.safeParse(schema, input);
  return result.success ? "ok" : describeArgumentIssues(result.issues, SHAPE);
}

describe("jsonSchemaInput", () => {
  it("is listed as written", () => {
    expect(jsonSchemaOf(jsonSchemaInput(SCHEMA))).toEqual(SCHEMA);
    expect(jsonSchemaOf(jsonSchemaInput({ $schema: "https://json-schema.org/draft/2020-12/schema", ...SCHEMA }))).toEqual(SCHEMA);
  });

  it.each([
    [{ path: "a.ts", startLine: 3, mode: "fast", flags: ["x"] }],
    [{ file_path: "a.ts" }],
    [{ path: "a.ts", startLine: 0 }],
    [{ path: "a.ts", startLine: 1.5 }],
    [{ path: "a.ts", mode: "slow" }],
    [{ path: 3 }],
    [{ path: "" }],
    [{ path: "a", flags: "x" }],
    [{ path: "a", flags: ["x", 2] }],
  ])("words %j as a valibot schema would", (input) => {
    expect(words(jsonSchemaInput(SCHEMA), input)).toBe(words(VALIBOT, input));
  });

  it("passes the input through unchanged when valid", () => {
    const input = { path: "a.ts", flags: [] };
    expect(v.parse(jsonSchemaInput(SCHEMA), input)).toBe(input);
  });

  it("says a keyword valibot has no twin for in the validator's own words", () => {
    const schema = jsonSchemaInput({
      type: "object",
      properties: { id: { type: "string", pattern: "^[0-9]+$" } },
      additionalProperties: false,
    });
    expect(words(schema, { id: "abc" })).toMatch(/^`id` is invalid: .*pattern/);
  });
});
