// registerTool's definitions come from code the bridge did not write: each bad one is refused with
// the field named, valibot and JSON Schema inputs both work, and a handler's failure is the plugin's.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../../src/errors.ts";
import { pluginTool, DEFAULT_PLUGIN_TIMEOUT_MS } from "../../../src/plugins/plugin-tool.ts";
import { pluginChecks } from "../../../src/cli/doctor-plugins.ts";
import type { ToolContext } from "../../../src/capabilities/context.ts";

const failures: [string, string][] = [];
const OPTS = {
  plugin: "acme",
  prefix: "acme",
  workspaceFolders: ["/ws"],
  settings: { maxResultChars: 1000, timeoutMs: 30_000, slim: false },
  onFailure: (tool: string, error: string) => void failures.push([tool, error]),
};
const GOOD = {
  name: "acmeTool",
  description: "Does a thing.",
  searchHint: "thing",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true },
  handler: async () => "ok",
};

function fakeCtx(): ToolContext {
  return {
    signal: new AbortController().signal,
    fs: {},
    exec: {},
    http: {},
    lsp: {},
    progress: () => undefined,
    log: () => undefined,
  } as unknown as ToolContext;
}

describe("pluginTool", () => {
  it("makes a Tool with the plugin default timeout, from JSON Schema or valibot", () => {
    expect(pluginTool(GOOD, OPTS)).toMatchObject({
      name: "acmeTool",
      timeoutMs: DEFAULT_PLUGIN_TIMEOUT_MS,
      annotations: { readOnlyHint: true },
    });
    const valibot = pluginTool({ ...GOOD, inputSchema: v.strictObject({ a: v.string() }), timeoutMs: 5000 }, OPTS);
    expect(v.safeParse(valibot.input, { a: "x" }).success).toBe(true);
    expect(valibot.timeoutMs).toBe(5000);
  });

  it.each([
    ["not an object", "x", /takes an object/],
    ["no name", { ...GOOD, name: undefined }, /name must be a string/],
    ["a name off the prefix", { ...GOOD, name: "otherTool" }, /must start with the manifest's toolNamePrefix "acme"/],
    ["the bare prefix", { ...GOOD, name: "acme" }, /toolNamePrefix/],
    ["no handler", { ...GOOD, handler: "x" }, /handler must be a function/],
    ["no annotations", { ...GOOD, annotations: undefined }, /annotations must be an object/],
    ["no input schema", { ...GOOD, inputSchema: undefined }, /inputSchema must be a valibot schema .* or a JSON Schema/],
    ["a broken JSON Schema", { ...GOOD, inputSchema: { $ref: "#/nowhere" } }, /inputSchema is not a usable JSON Schema|acmeTool/],
    ["a short timeout", { ...GOOD, timeoutMs: 10 }, /timeoutMs must be an integer >= 1000/],
    ["bad requires", { ...GOOD, requires: { probes: "git" } }, /requires must be/],
  ])("refuses %s", (_case, definition, error) => {
    let thrown: unknown;
    try {
      pluginTool(definition, OPTS);
    } catch (err) {
      thrown = err;
    }
    if (thrown === undefined) {
      // A JSON Schema whose $ref points nowhere is only found out when it is used.
      const tool = pluginTool(definition, OPTS);
      expect(() => v.safeParse(tool.input, {})).toThrow();
      return;
    }
    expect(String(thrown)).toMatch(error);
  });

  it("turns a handler's throw into the plugin's tool_failed, and records it; a ToolError passes as it is", async () => {
    const throws = pluginTool(
      {
        ...GOOD,
        handler: () => {
          throw new Error("boom");
        },
      },
      OPTS,
    );
    const err = await throws.handlers.headless?.({}, fakeCtx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe("tool_failed");
    expect((err as ToolError).message).toBe("acmeTool (plugin acme) failed: boom");
    expect(failures.at(-1)).toEqual(["acmeTool", "boom"]);
    const expected = new ToolError("file_not_found", "gone", { suggestion: "look elsewhere" });
    const passes = pluginTool({ ...GOOD, handler: () => Promise.reject(expected) }, OPTS);
    expect(await passes.handlers.headless?.({}, fakeCtx()).catch((e: unknown) => e)).toBe(expected);
  });

  it("passes text and content blocks, and sends other values as compact JSON", async () => {
    const answer = (value: unknown) => pluginTool({ ...GOOD, handler: () => value }, OPTS).handlers.headless?.({}, fakeCtx());
    expect(await answer("plain")).toBe("plain");
    expect(await answer({ content: [{ type: "text", text: "t" }] })).toEqual({ content: [{ type: "text", text: "t" }] });
    expect(await answer({ content: [{ type: "bogus" }] })).toBe('{"content":[{"type":"bogus"}]}');
    expect(await answer({ a: [1, 2] })).toBe('{"a":[1,2]}');
  });
});

describe("doctor's plugin checks", () => {
  it("says which plugins serve, which failed and whose tool last failed", () => {
    const checks = pluginChecks(
      {
        plugins: [
          {
            name: "good",
            version: "1.0.0",
            source: "./good",
            state: "loaded",
            tools: ["goodA", "goodB"],
            lastToolFailure: { tool: "goodA", error: "boom" },
          },
          { name: "bad", source: "./bad", state: "failed", tools: [], error: "register(ctx) threw: no" },
          {
            name: "stale",
            version: "2.0.0",
            source: "./stale",
            state: "loaded",
            tools: ["staleA"],
            error: "importing index.mjs threw: x (a reload failed; the version loaded before still serves)",
          },
        ],
      },
      { cli: "claude-ide-bridge" },
    );
    expect(checks.map((c) => [c.status, c.summary])).toEqual([
      ["ok", "good 1.0.0: 2 tool(s) served"],
      ["warn", "good 1.0.0: its tool goodA failed: boom"],
      ["fail", "bad (./bad): register(ctx) threw: no"],
      ["fail", "stale 2.0.0 (./stale): importing index.mjs threw: x (a reload failed; the version loaded before still serves)"],
    ]);
    expect(pluginChecks({}, { cli: "x" })).toEqual([]);
  });
});
