// The registry checks every tool at start without converting its schemas to JSON Schema (the
// conversion was most of the start-up's cost): the shape it reads from valibot's schema objects must
// say what the converted schema says, for every built-in tool; the entries are converted on the first
// tools/list, while a plugin's are converted when it is added, so a schema that cannot be listed
// refuses the plugin before anything changes.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { jsonSchemaOf, objectShapeOf, type JsonObject } from "../../../src/tools/platform/json-schema.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const OPTIONS = { slim: false, maxResultChars: 512 * 1024 };

function shapeOfConverted(schema: JsonObject) {
  const properties = schema.properties;
  return {
    object: schema.type === "object",
    strict: schema.additionalProperties === false,
    keys: typeof properties === "object" && properties !== null ? Object.keys(properties) : [],
  };
}

/** A tool whose input valibot checks but JSON Schema cannot express (errorMode "throw" refuses a Date). */
const unlistable = defineTool({
  name: "whenever",
  description: "Does a thing at a time.",
  searchHint: "time",
  input: v.strictObject({ when: v.date() }),
  annotations: { readOnlyHint: true },
  async handler() {
    return "ok";
  },
});

describe("the registry's schemas", () => {
  it("reads, for every built-in tool, the shape its converted schemas have", () => {
    const tools = TOOLSETS.flatMap((t) => [...t.tools]);
    expect(tools.length).toBeGreaterThan(100);
    for (const tool of tools) {
      expect({ tool: tool.name, shape: objectShapeOf(tool.input) }).toEqual({
        tool: tool.name,
        shape: shapeOfConverted(jsonSchemaOf(tool.input)),
      });
      if (tool.output !== undefined)
        expect({ tool: tool.name, shape: objectShapeOf(tool.output) }).toEqual({
          tool: tool.name,
          shape: shapeOfConverted(jsonSchemaOf(tool.output)),
        });
    }
  });

  it("tells a loose or non-object input apart without converting it", () => {
    expect(objectShapeOf(v.object({ a: v.string() }))).toEqual({ object: true, strict: false, keys: ["a"] });
    expect(
      objectShapeOf(
        v.pipe(
          v.strictObject({ a: v.string() }),
          v.check(() => true),
        ),
      ),
    ).toEqual({ object: true, strict: true, keys: ["a"] });
    expect(objectShapeOf(v.string())).toEqual({ object: false, strict: false, keys: [] });
  });

  it("converts a built-in tool's schema on the first tools/list, not at start, and keeps the entries", () => {
    const registry = new ToolRegistry([defineToolset({ name: "timing", purpose: "things at a time", tools: [unlistable] })], OPTIONS);
    expect(registry.get("whenever")).toBeDefined();
    expect(registry.listedNames()).toEqual(["whenever"]);
    expect(() => registry.entries()).toThrow(/date/i);
    const built = new ToolRegistry(TOOLSETS, OPTIONS);
    const first = built.entries();
    expect(built.entries()).toBe(first);
    expect(first.map((e) => e.name)).toEqual(built.listedNames());
  });

  it("converts a plugin's schemas when it is added, refusing it whole", () => {
    const registry = new ToolRegistry(
      TOOLSETS.filter((t) => t.name === "git"),
      OPTIONS,
    );
    const before = registry.entries().map((e) => e.name);
    expect(() => registry.replaceToolset("p", defineToolset({ name: "plugin-p", purpose: "a plugin", tools: [unlistable] }))).toThrow(
      /date/i,
    );
    expect(registry.get("whenever")).toBeUndefined();
    expect(registry.entries().map((e) => e.name)).toEqual(before);
  });
});
