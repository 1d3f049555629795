// tools/list is read on every connection and, for clients that load tools up front, sits in the
// model's context on every turn: each tool's entry has a byte budget, and so does the average.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { jsonSchemaOf } from "../../../src/tools/platform/json-schema.ts";
import { listedInputSchema } from "../../../src/tools/platform/listed-schema.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

/** Before the listing was compacted: 135,067 bytes for 97 tools (bench/tools-list-size.mjs). */
const BEFORE_PER_TOOL = 1392;
/** The goal: at most 60 % of that per tool, on average. */
const AVERAGE_BUDGET = Math.floor(BEFORE_PER_TOOL * 0.6);
/** No single entry may pass this (the largest today is about 1,900 bytes). */
const ENTRY_BUDGET = 2000;

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });

describe("the listed tools", () => {
  it.each(registry.entries().map((e) => [e.name, e] as const))("%s stays within its byte budget", (_name, entry) => {
    expect(bytes(entry)).toBeLessThanOrEqual(ENTRY_BUDGET);
  });

  it("average within 60 % of the bytes per tool before compaction", () => {
    const entries = registry.entries();
    expect(Math.round(bytes(entries) / entries.length)).toBeLessThanOrEqual(AVERAGE_BUDGET);
  });
});

describe("listedInputSchema", () => {
  it("leaves out validation-only keywords but keeps what a caller needs, and the dispatcher still checks them", () => {
    const input = v.strictObject({
      pattern: v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("A regex.")),
      tags: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z]+$/))), v.maxLength(5), v.minLength(1))),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
      kind: v.picklist(["a", "b"]),
      parent: v.nullable(v.string()),
    });
    const listed = listedInputSchema(jsonSchemaOf(input));
    expect(listed).toEqual({
      type: "object",
      properties: {
        // A property named like a keyword ("pattern") is data and stays.
        pattern: { type: "string", description: "A regex." },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        kind: { enum: ["a", "b"], type: "string" },
        parent: { type: ["string", "null"] },
      },
      required: ["pattern", "kind", "parent"],
      additionalProperties: false,
    });
    // The full schema still refuses what the listing no longer says.
    expect(v.safeParse(input, { pattern: "", kind: "a", parent: null }).success).toBe(false);
    expect(v.safeParse(input, { pattern: "x", kind: "a", parent: null, tags: ["A"] }).success).toBe(false);
  });

  it("drops an empty required list and never the title twice", () => {
    const tool = defineTool({
      name: "t",
      title: "A title",
      description: "Does a thing.",
      searchHint: "thing",
      input: v.strictObject({ a: v.optional(v.pipe(v.string(), v.description("An a."))) }),
      output: v.object({ n: v.number() }),
      annotations: { readOnlyHint: true },
      async handler() {
        return { n: 1 };
      },
    });
    const [entry] = new ToolRegistry([{ name: "test", purpose: "tests", tools: [tool] }], { slim: false, maxResultChars: 1 }).entries();
    expect(entry).toEqual({
      name: "t",
      title: "A title",
      description: "Does a thing.",
      inputSchema: { type: "object", properties: { a: { type: "string", description: "An a." } }, additionalProperties: false },
      annotations: { readOnlyHint: true },
      _meta: { "anthropic/searchHint": "thing" },
    });
  });
});
