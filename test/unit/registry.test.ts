import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../src/errors.ts";
import { bridgeTools } from "../../src/tools/bridge/index.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { MAX_DESCRIPTION_CHARS, ToolRegistry } from "../../src/tools/registry.ts";
import { SLIM_TOOL_NAMES } from "../../src/tools/slim.ts";
import { workspaceTools } from "../../src/tools/workspace/index.ts";

const ALL = [...bridgeTools, ...workspaceTools];
const tool = (name: string, description = "A tool.", input: v.GenericSchema = v.strictObject({})) =>
  defineTool({ name, description, input, async handler() {
    return "ok";
  } });

describe("the built-in tools", () => {
  const registry = new ToolRegistry(ALL, { slim: false, maxResultChars: 512 * 1024 });

  it("are all registered, none silently dropped", () => {
    expect(registry.size).toBe(ALL.length);
    expect(registry.entries().map((e) => e.name).sort()).toEqual(
      ["findFiles", "getFileTree", "getProjectInfo", "getToolCapabilities", "getWorkspaceFolders", "readFile"].sort(),
    );
  });

  it.each(ALL.map((t) => [t.name]))("%s has a unique valid name, a short description and object schemas", (name) => {
    const entry = registry.entries().find((e) => e.name === name);
    expect(entry).toBeDefined();
    if (!entry) return;
    expect(entry.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(entry.description.length).toBeGreaterThan(10);
    expect(entry.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(entry.inputSchema.type).toBe("object");
    expect(entry.inputSchema.$schema).toBeUndefined();
    // Claude Code flattens root-level combinators (protocol.md D1), so none may appear there.
    for (const key of ["anyOf", "oneOf", "allOf"]) expect(entry.inputSchema[key]).toBeUndefined();
    if (entry.outputSchema) expect(entry.outputSchema.type).toBe("object");
    expect(entry.annotations?.readOnlyHint).toBe(true);
  });

  it("marks the large-result tools with Claude Code's size hint, capped at 500,000", () => {
    const big = registry.entries().filter((e) => e._meta);
    expect(big.map((e) => e.name).sort()).toEqual(["findFiles", "getFileTree", "readFile"]);
    for (const entry of big) expect(entry._meta).toEqual({ "anthropic/maxResultSizeChars": 500_000 });
    const small = new ToolRegistry(ALL, { slim: false, maxResultChars: 100_000 });
    expect(small.entries().find((e) => e.name === "readFile")?._meta).toEqual({ "anthropic/maxResultSizeChars": 100_000 });
  });

  it("--slim keeps only the named set", () => {
    const slim = new ToolRegistry(ALL, { slim: true, maxResultChars: 1 });
    expect(slim.entries().map((e) => e.name)).toEqual(["getToolCapabilities"]);
    expect(SLIM_TOOL_NAMES.size).toBe(61);
  });

  it("exposes a catalog for introspection", () => {
    const summary = registry.list().find((t) => t.name === "readFile");
    expect(summary).toMatchObject({ name: "readFile", readOnly: true, requires: {} });
  });
});

describe("registry checks", () => {
  const build = (...tools: ReturnType<typeof tool>[]) => () => new ToolRegistry(tools, { slim: false, maxResultChars: 1 });

  it("refuses duplicate names", () => {
    expect(build(tool("a"), tool("a"))).toThrow(/registered twice/);
  });
  it("refuses invalid names", () => {
    expect(build(tool("has space"))).toThrow(BridgeError);
    expect(build(tool("x".repeat(129)))).toThrow(/name/);
  });
  it("refuses empty and over-long descriptions", () => {
    expect(build(tool("a", "  "))).toThrow(/empty/);
    expect(build(tool("a", "d".repeat(MAX_DESCRIPTION_CHARS + 1)))).toThrow(/at most 200/);
  });
  it("refuses non-object input schemas", () => {
    expect(build(tool("a", "A tool.", v.string()))).toThrow(/object schema/);
  });
  it("refuses schemas JSON Schema cannot express", () => {
    expect(build(tool("a", "A tool.", v.object({ f: v.custom<string>(() => true) })))).toThrow();
  });
});
