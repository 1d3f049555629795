import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../src/errors.ts";
import { defineTool, type Tool } from "../../../src/tools/platform/define-tool.ts";
import { buildInstructions, MAX_INSTRUCTIONS_BYTES, PLUGIN_TOOLSET_PREFIX } from "../../../src/tools/platform/instructions.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { MAX_ALWAYS_LOAD, MAX_DESCRIPTION_CHARS, MAX_SEARCH_HINT_CHARS } from "../../../src/tools/platform/tool-invariants.ts";
import { defineToolset, type Toolset } from "../../../src/tools/platform/toolset.ts";
import { withToolsetDefaults } from "../../../src/tools/platform/toolset-defaults.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { GH_TIMEOUT_MS } from "../../../src/services/github/gh-environment.ts";

const ALL: Tool[] = TOOLSETS.flatMap((t) => [...t.tools]);
const tool = (
  name: string,
  over: { description?: string; searchHint?: string; input?: v.GenericSchema; alwaysLoad?: boolean; output?: v.GenericSchema } = {},
) =>
  defineTool({
    name,
    description: over.description ?? "Does a thing.",
    searchHint: over.searchHint ?? "thing",
    input: over.input ?? v.strictObject({}),
    annotations: { readOnlyHint: true },
    ...(over.output === undefined ? {} : { output: over.output }),
    ...(over.alwaysLoad === undefined ? {} : { alwaysLoad: over.alwaysLoad }),
    async handler() {
      return "ok";
    },
  });
const set = (...tools: Tool[]): Toolset[] => [defineToolset({ name: "test", purpose: "tests", tools })];

describe("the built-in tools", () => {
  const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });

  it("are all registered, none silently dropped", () => {
    expect(registry.size).toBe(ALL.length);
    expect(
      registry
        .entries()
        .map((e) => e.name)
        .sort(),
    ).toEqual(ALL.map((t) => t.name).sort());
    // Each toolset's own tests pin its tool names; these two are the foundation's.
    const names = (set: string) => TOOLSETS.find((t) => t.name === set)?.tools.map((t) => t.name);
    expect(names("workspace")).toEqual([
      "getWorkspaceFolders",
      "getProjectInfo",
      "getFileTree",
      "findFiles",
      "readFile",
      "setActiveWorkspaceFolder",
      "spawnWorkspace",
      "stopWorkspace",
    ]);
    expect(names("bridge")).toEqual([
      "getToolCapabilities",
      "getBridgeStatus",
      "getActivityLog",
      "watchActivityLog",
      "getPerformanceReport",
      "getAnalyticsReport",
      "getSessionUsage",
      "bridgeDoctor",
      "searchTools",
    ]);
  });

  it.each(ALL.map((t) => [t.name]))("%s keeps the contract: name, verb-first description, search hint, strict object schemas", (name) => {
    const entry = registry.entries().find((e) => e.name === name);
    if (!entry) throw new Error(`${name} is not listed`);
    expect(entry.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(entry.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(entry.description).toMatch(/^[A-Z][a-z]+s\b/);
    const hint = entry._meta["anthropic/searchHint"];
    expect(typeof hint === "string" && hint.length > 0 && hint.length <= MAX_SEARCH_HINT_CHARS).toBe(true);
    expect(entry.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    expect(entry.inputSchema.$schema).toBeUndefined();
    // Claude Code flattens root-level combinators (protocol.md D1), so none may appear there.
    for (const key of ["anyOf", "oneOf", "allOf"]) expect(entry.inputSchema[key]).toBeUndefined();
    for (const prop of Object.values((entry.inputSchema.properties ?? {}) as Record<string, unknown>))
      expect(prop).toHaveProperty("description");
    expect(entry.outputSchema).toBeUndefined();
    expect(entry.annotations?.title).toBeUndefined();
  });

  it("declares no output schema for text payloads (Claude Code would show only the JSON)", () => {
    const structured = new Set(ALL.filter((t) => t.output !== undefined).map((t) => t.name));
    // Lists read as lines (findFiles, branches, hotspots) are text too: JSON would repeat keys and quotes per item.
    const text = ["getFileTree", "readFile", "findFiles", "gitListBranches", "getGitHotspots"];
    expect(text.filter((name) => structured.has(name))).toEqual([]);
    expect(["getProjectInfo", "getToolCapabilities", "getWorkspaceFolders"].every((name) => structured.has(name))).toBe(true);
  });

  it("raises Claude Code's size limit to exactly the bridge's own cap for the large-result tools", () => {
    const sizes = (r: ToolRegistry) =>
      Object.fromEntries(
        r
          .entries()
          .flatMap((e) =>
            e._meta["anthropic/maxResultSizeChars"] === undefined ? [] : [[e.name, e._meta["anthropic/maxResultSizeChars"]]],
          ),
      );
    const large = ALL.filter((t) => t.largeResult).map((t) => t.name);
    expect(large).toEqual(expect.arrayContaining(["findFiles", "getFileTree", "readFile"]));
    expect(sizes(registry)).toEqual(Object.fromEntries(large.map((n) => [n, 500_000])));
    expect(sizes(new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 100_000 }))).toEqual(
      Object.fromEntries(large.map((n) => [n, 100_000])),
    );
    // Below Claude Code's own 50,000 there is nothing to raise.
    expect(sizes(new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 1024 }))).toEqual({});
  });

  it("--slim keeps only the tools that say they are slim", () => {
    const slim = new ToolRegistry(TOOLSETS, { slim: true, maxResultChars: 1 });
    expect(slim.entries().map((e) => e.name)).toEqual(ALL.filter((t) => t.slim).map((t) => t.name));
    expect(slim.entries().map((e) => e.name)).toContain("getToolCapabilities");
    expect(slim.toolsets.every((t) => t.tools.every((tool) => tool.slim))).toBe(true);
  });

  it("state readOnlyHint, and destructiveHint exactly when not read-only, in tools/list and the catalog", () => {
    for (const entry of registry.entries()) {
      const hints = entry.annotations ?? {};
      expect(typeof hints.readOnlyHint, entry.name).toBe("boolean");
      expect(typeof hints.destructiveHint, entry.name).toBe(hints.readOnlyHint ? "undefined" : "boolean");
    }
    const readOnly = new Map(registry.list().map((t) => [t.name, t.readOnly]));
    for (const entry of registry.entries()) expect(readOnly.get(entry.name), entry.name).toBe(entry.annotations?.readOnlyHint);
    expect(["readFile", "getGitStatus", "watchFiles", "findReferences"].map((n) => readOnly.get(n))).toEqual([true, true, true, true]);
    const writes = ["beginTransaction", "stageEdit", "rollbackTransaction", "unwatchFiles", "runTests", "sendHttpRequest"];
    expect(writes.map((n) => readOnly.get(n))).toEqual(writes.map(() => false));
  });

  it("exposes a catalog for introspection", () => {
    expect(registry.list().find((t) => t.name === "readFile")).toMatchObject({ name: "readFile", readOnly: true, requires: {} });
  });

  it("builds instructions from the toolsets, within Claude Code's 2 KB", () => {
    const text = buildInstructions(registry.toolsets, { root: "/work/app" });
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
    expect(text).toContain("/work/app");
    expect(text).toContain("- workspace: workspace folders, project kind");
    expect(text).toContain("readFile");
    expect(text).toContain("getToolCapabilities");
  });

  it("keeps instructions within 2 KB with 6 plugins loaded: every built-in purpose, one line per plugin while they fit, a marker for the rest", () => {
    const withPlugins = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });
    const pluginNames = ["acme", "tickets", "deploy", "metrics", "infra", "billing"];
    for (const name of pluginNames)
      withPlugins.replaceToolset(
        name,
        defineToolset({
          name: `${PLUGIN_TOOLSET_PREFIX}${name}`,
          purpose: `${name}: team tools for issues, builds and releases of our services, with a purpose far too long to keep whole`,
          tools: [tool(`${name}Status`), tool(`${name}Run`)],
        }),
      );
    for (const root of ["/r", "/home/user/projects/my-app"]) {
      const text = buildInstructions(withPlugins.toolsets, { root });
      expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
      // No built-in toolset is pushed out, nor the closing line.
      for (const t of TOOLSETS) expect(text).toContain(`- ${t.name}: ${t.purpose}`);
      expect(text).toMatch(/getToolCapabilities: what cannot work here\.$/);
      const lines = text.split("\n");
      const shown = lines.filter((l) => l.startsWith(`- ${PLUGIN_TOOLSET_PREFIX}`));
      // The first plugins have their lines, cut short with a mark; the ones past the room are counted.
      // Four of them fit beside every built-in purpose: the room later toolsets and plugins take.
      expect(shown[0]).toMatch(/^- plugin-acme: acme: team tools for .*…$/);
      expect(shown.length).toBeGreaterThanOrEqual(4);
      for (const line of shown) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(64);
      expect(lines).toContain(`- +${pluginNames.length - shown.length} more plugin toolsets (tool search finds their tools)`);
    }
    // With room to spare, every plugin has its line and there is no marker.
    const few = buildInstructions([TOOLSETS[0] as Toolset, ...withPlugins.toolsets.slice(-3)], { root: "/r" });
    expect(few.split("\n").filter((l) => l.startsWith("- plugin-"))).toHaveLength(3);
    expect(few).not.toContain("more plugin toolset");
    // The rule that tells plugin toolsets apart names no built-in one.
    for (const t of TOOLSETS) expect(t.name.startsWith(PLUGIN_TOOLSET_PREFIX)).toBe(false);
  });

  it("keeps instructions under 2 KB with many toolsets: every purpose, tool names while they fit", () => {
    const many = Array.from({ length: 14 }, (_, i) =>
      defineToolset({
        name: `set${i}`,
        purpose: `purpose number ${i} with some words a model searches for`,
        tools: Array.from({ length: 12 }, (_, j) => tool(`tool${i}x${j}WithALongName`)),
      }),
    );
    const text = buildInstructions(many, { root: "/r" });
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
    for (let i = 0; i < 14; i++) expect(text).toContain(`- set${i}: purpose number ${i} with some words`);
    expect(text).toContain("tool0x11WithALongName");
    expect(text).not.toContain("tool13x0WithALongName");
  });
});

describe("registry checks", () => {
  const build =
    (...tools: Tool[]) =>
    () =>
      new ToolRegistry(set(...tools), { slim: false, maxResultChars: 1 });

  it("refuses duplicate and invalid names", () => {
    expect(build(tool("a"), tool("a"))).toThrow(/registered twice/);
    expect(build(tool("has space"))).toThrow(BridgeError);
    expect(build(tool("x".repeat(129)))).toThrow(/name/);
  });
  it("refuses empty, over-long and verbless descriptions", () => {
    expect(build(tool("a", { description: "  " }))).toThrow(/empty/);
    expect(build(tool("a", { description: `Does ${"d".repeat(MAX_DESCRIPTION_CHARS)}` }))).toThrow(/at most 200/);
    expect(build(tool("a", { description: "Indented tree of files." }))).toThrow(/start with a verb/);
  });
  it("refuses a missing, multi-line or long search hint", () => {
    expect(build(tool("a", { searchHint: " " }))).toThrow(/searchHint is empty/);
    expect(build(tool("a", { searchHint: "a\nb" }))).toThrow(/one line/);
    expect(build(tool("a", { searchHint: "w ".repeat(MAX_SEARCH_HINT_CHARS) }))).toThrow(/one line/);
  });
  it("refuses non-object and non-strict input schemas, and schemas JSON Schema cannot express", () => {
    expect(build(tool("a", { input: v.string() }))).toThrow(/object schema/);
    expect(build(tool("a", { input: v.object({ x: v.optional(v.string()) }) }))).toThrow(/strict object/);
    // Converted on the first tools/list (lazy-schemas.test.ts), where it is refused.
    const inexpressible = build(tool("a", { input: v.strictObject({ f: v.custom<string>(() => true) }) }));
    expect(() => inexpressible().entries()).toThrow();
  });
  it("refuses a tool that does not say whether it is read-only, and if not, whether it is destructive", () => {
    // Built by hand, as a tool that skipped defineTool's types would be (Bun and Deno run sources unchecked).
    expect(build({ ...tool("a"), annotations: {} })).toThrow(/Tool "a": annotations must state readOnlyHint/);
    expect(build({ ...tool("a"), annotations: { destructiveHint: false } })).toThrow(/must state readOnlyHint/);
    expect(build({ ...tool("a"), annotations: { readOnlyHint: false } })).toThrow(/must state destructiveHint when readOnlyHint is false/);
    expect(build({ ...tool("a"), annotations: { readOnlyHint: true, destructiveHint: false } })).toThrow(
      /read-only tool states no destructiveHint/,
    );
    expect(build({ ...tool("a"), annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true } })).not.toThrow();
  });
  it("refuses an output that uses the cap's reserved key", () => {
    expect(build(tool("a", { output: v.object({ _truncated: v.string() }) }))).toThrow(/reserved key _truncated/);
  });
  it(`allows at most ${MAX_ALWAYS_LOAD} alwaysLoad tools in the whole bridge`, () => {
    const eager = (n: number) => Array.from({ length: n }, (_, i) => tool(`eager${i}`, { alwaysLoad: true }));
    expect(() => new ToolRegistry(set(...eager(MAX_ALWAYS_LOAD)), { slim: false, maxResultChars: 1 })).not.toThrow();
    const split = [
      defineToolset({ name: "one", purpose: "p", tools: eager(5) }),
      defineToolset({ name: "two", purpose: "p", tools: eager(9).slice(5) }),
    ];
    expect(() => new ToolRegistry(split, { slim: false, maxResultChars: 1 })).toThrow(/at most 8/);
    const alwaysLoad = new ToolRegistry(set(tool("eager", { alwaysLoad: true }), tool("lazy")), { slim: false, maxResultChars: 1 });
    expect(alwaysLoad.entries().map((e) => e._meta["anthropic/alwaysLoad"])).toEqual([true, undefined]);
  });
  it("refuses toolsets with bad names, purposes or no tools", () => {
    expect(
      () => new ToolRegistry([defineToolset({ name: "Bad Name", purpose: "p", tools: [tool("a")] })], { slim: false, maxResultChars: 1 }),
    ).toThrow(/lowercase/);
    expect(() => new ToolRegistry([defineToolset({ name: "empty", purpose: "p", tools: [] })], { slim: false, maxResultChars: 1 })).toThrow(
      /no tools/,
    );
    expect(
      () =>
        new ToolRegistry([defineToolset({ name: "bad-purpose", purpose: "a\nb", tools: [tool("a")] })], { slim: false, maxResultChars: 1 }),
    ).toThrow(/one line/);
  });
});

describe("toolset defaults", () => {
  const needing = (name: string, requires: { probes?: string[]; optionalProbes?: string[] }, timeoutMs?: number) =>
    defineTool({
      name,
      description: "Does a thing.",
      searchHint: "thing",
      input: v.strictObject({}),
      annotations: { readOnlyHint: true },
      requires,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      async handler() {
        return "ok";
      },
    });

  it("add probes to each tool's own, the toolset's first, and give a timeout to the tools without one", () => {
    const toolset = defineToolset({
      name: "test",
      purpose: "tests",
      defaults: { requires: { probes: ["gh"], optionalProbes: ["rg"] }, timeoutMs: 60_000 },
      tools: [needing("plain", {}), needing("more", { probes: ["git", "gh"], optionalProbes: ["gh", "jq"] }, 5_000)],
    });
    const [plain, more] = toolset.tools;
    expect(plain).toMatchObject({ requires: { probes: ["gh"], optionalProbes: ["rg"] }, timeoutMs: 60_000 });
    // A probe required by either is required (not also optional); the tool's own timeout wins, shorter or not.
    expect(more).toMatchObject({ requires: { probes: ["gh", "git"], optionalProbes: ["rg", "jq"] }, timeoutMs: 5_000 });
    if (more === undefined) throw new Error("no tool");
    expect(withToolsetDefaults(more, toolset.defaults ?? {})).toEqual(more);
  });

  it("keep what defineTool worked out (extension) and leave a toolset without defaults as it was", () => {
    const fallback = defineTool({
      name: "fallback",
      description: "Does a thing.",
      searchHint: "thing",
      input: v.strictObject({}),
      annotations: { readOnlyHint: true },
      async handler() {
        return "headless";
      },
      async viaExtension() {
        return "extension";
      },
    });
    const withDefaults = defineToolset({ name: "a", purpose: "p", defaults: { requires: { probes: ["git"] } }, tools: [fallback] });
    expect(withDefaults.tools[0]?.requires).toEqual({ probes: ["git"], extension: "fallback" });
    const without = defineToolset({ name: "b", purpose: "p", tools: [fallback] });
    expect(without.tools[0]).toBe(fallback);
  });

  it("are what the registry serves: the catalog and the tool the dispatcher runs", () => {
    const registry = new ToolRegistry(
      [
        defineToolset({
          name: "test",
          purpose: "tests",
          defaults: { requires: { probes: ["git"] }, timeoutMs: 30_000 },
          tools: [tool("t")],
        }),
      ],
      { slim: false, maxResultChars: 1 },
    );
    expect(registry.get("t")).toMatchObject({ requires: { probes: ["git"] }, timeoutMs: 30_000 });
    expect(registry.list()[0]?.requires).toEqual({ probes: ["git"] });
  });

  it("refuses a default timeout under a second", () => {
    const toolset = defineToolset({ name: "test", purpose: "tests", defaults: { timeoutMs: 500 }, tools: [needing("t", {}, 5_000)] });
    expect(() => new ToolRegistry([toolset], { slim: false, maxResultChars: 1 })).toThrow(/defaults.timeoutMs/);
  });

  it("give the built-in toolsets their shared executables and timeouts", () => {
    const toolsOf = (name: string) => TOOLSETS.find((t) => t.name === name)?.tools ?? [];
    for (const t of toolsOf("git")) expect(t.requires.probes, t.name).toEqual(["git"]);
    for (const t of toolsOf("github")) {
      expect(t.requires.probes?.[0], t.name).toBe("gh");
      expect(t.timeoutMs, t.name).toBe(GH_TIMEOUT_MS);
    }
    expect(toolsOf("github").find((t) => t.name === "githubCreatePR")?.requires.probes).toEqual(["gh", "git"]);
    for (const t of toolsOf("search")) expect(t.requires.optionalProbes, t.name).toContain("rg");
    for (const t of [...toolsOf("code-navigation"), ...toolsOf("code-intelligence")])
      expect(t.timeoutMs ?? 0, t.name).toBeGreaterThanOrEqual(60_000);
    expect(toolsOf("code-intelligence").find((t) => t.name === "renameSymbol")?.timeoutMs).toBe(180_000);
  });
});
