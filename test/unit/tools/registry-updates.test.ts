// The registry as plugins change it at runtime: a toolset is added, replaced or removed whole, or
// refused whole (nothing changes), and the built-in tools are never touched.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../src/errors.ts";
import { defineTool, type Tool } from "../../../src/tools/platform/define-tool.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const tool = (name: string, description = "Does a thing.") =>
  defineTool({
    name,
    description,
    searchHint: "thing",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    async handler() {
      return name;
    },
  });
const plugin = (name: string, ...tools: Tool[]) => defineToolset({ name, purpose: `the ${name} plugin`, tools });

describe("ToolRegistry.replaceToolset", () => {
  const fresh = () => new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });

  it("adds a toolset's tools after the built-in ones, in tools/list and the toolsets", () => {
    const registry = fresh();
    const before = registry.entries();
    const version = registry.version;
    registry.replaceToolset("a", plugin("plugin-a", tool("aOne"), tool("aTwo")));
    expect(registry.entries().slice(0, before.length)).toEqual(before);
    expect(
      registry
        .entries()
        .slice(before.length)
        .map((e) => e.name),
    ).toEqual(["aOne", "aTwo"]);
    expect(registry.get("aOne")).toBeDefined();
    expect(registry.toolsets.at(-1)?.name).toBe("plugin-a");
    expect(registry.version).toBeGreaterThan(version);
  });

  it("replaces a toolset in one step: a reader holding the old list or tool keeps it", () => {
    const registry = fresh();
    registry.replaceToolset("a", plugin("plugin-a", tool("aOne"), tool("aGone")));
    const oldList = registry.entries();
    const oldTool = registry.get("aOne");
    registry.replaceToolset("a", plugin("plugin-a", tool("aOne", "Does another thing."), tool("aNew")));
    expect(registry.get("aOne")).not.toBe(oldTool);
    expect(registry.get("aOne")?.description).toBe("Does another thing.");
    expect(registry.get("aGone")).toBeUndefined();
    expect(oldList.map((e) => e.name)).toContain("aGone");
    expect(
      registry
        .entries()
        .filter((e) => e.name.startsWith("a") && /^a[A-Z]/.test(e.name))
        .map((e) => e.name),
    ).toEqual(["aOne", "aNew"]);
    expect(registry.toolsets.filter((t) => t.name === "plugin-a")).toHaveLength(1);
  });

  it("refuses a collision with a built-in or another toolset's tool, and changes nothing", () => {
    const registry = fresh();
    registry.replaceToolset("a", plugin("plugin-a", tool("aOne")));
    const [entries, size, version] = [registry.entries(), registry.size, registry.version];
    expect(() => registry.replaceToolset("b", plugin("plugin-b", tool("bOne"), tool("getGitStatus")))).toThrow(
      /"getGitStatus" is already registered/,
    );
    expect(() => registry.replaceToolset("c", plugin("plugin-c", tool("aOne")))).toThrow(BridgeError);
    expect(() => registry.replaceToolset("d", plugin("plugin-a", tool("dOne")))).toThrow(/registered twice/);
    expect(() => registry.replaceToolset("e", plugin("git", tool("eOne")))).toThrow(/built-in toolset's name/);
    expect([registry.entries(), registry.size, registry.version]).toEqual([entries, size, version]);
    expect(registry.get("bOne")).toBeUndefined();
  });

  it("holds added tools to the same invariants as built-in ones", () => {
    const registry = fresh();
    expect(() => registry.replaceToolset("a", plugin("plugin-a", tool("aBad", "does a thing")))).toThrow(/must start with a verb/);
    const loose = defineTool({
      name: "aLoose",
      description: "Takes anything.",
      searchHint: "loose",
      input: v.object({}),
      annotations: { readOnlyHint: true },
      handler: async () => "",
    });
    expect(() => registry.replaceToolset("a", plugin("plugin-a", loose))).toThrow(/strict object/);
  });

  it("removes a toolset when given none", () => {
    const registry = fresh();
    const size = registry.size;
    registry.replaceToolset("a", plugin("plugin-a", tool("aOne")));
    registry.replaceToolset("a", undefined);
    expect(registry.size).toBe(size);
    expect(registry.get("aOne")).toBeUndefined();
    expect(registry.toolsets.map((t) => t.name)).not.toContain("plugin-a");
  });
});
