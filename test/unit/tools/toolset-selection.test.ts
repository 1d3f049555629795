// --toolsets, --exclude-toolsets, --profile and --slim choose what the registry lists, and what they
// leave out is reported with the flag that brings it back (getToolCapabilities shows it).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../src/errors.ts";
import { defineTool, type Tool } from "../../../src/tools/platform/define-tool.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { PROFILE_DROP_ORDER, PROFILE_KEEP } from "../../../src/tools/platform/profile-ranks.ts";
import { PROFILES, selectToolsets } from "../../../src/tools/platform/toolset-selection.ts";
import type { Toolset } from "../../../src/tools/platform/toolset.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import getToolCapabilities from "../../../src/tools/bridge/get-tool-capabilities.ts";

const ALL = TOOLSETS.flatMap((t) => t.tools.map((tool) => tool.name));
const toolsOf = (name: string) => TOOLSETS.find((t) => t.name === name)?.tools.map((t) => t.name) ?? [];
const registry = (opts: Partial<ConstructorParameters<typeof ToolRegistry>[1]>) =>
  new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 1, ...opts });

const tool = (name: string, slim = false): Tool =>
  defineTool({
    name,
    description: "Does a thing.",
    searchHint: "thing",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    slim,
    async handler() {
      return "ok";
    },
  });
const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => tool(`${prefix}${i}`));

describe("selectToolsets", () => {
  it("keeps every toolset by default and reports nothing off", () => {
    const r = registry({});
    expect(r.entries().map((e) => e.name)).toEqual(ALL);
    expect(r.offByConfiguration()).toEqual([]);
  });

  it("--toolsets keeps only those, and the bridge toolset so the model can ask what is off", () => {
    const r = registry({ toolsets: ["git"] });
    expect(r.entries().map((e) => e.name)).toEqual([...toolsOf("git"), ...toolsOf("bridge")]);
    const off = r.offByConfiguration();
    expect(off.map((o) => o.toolset)).toEqual(TOOLSETS.map((t) => t.name).filter((n) => n !== "git" && n !== "bridge"));
    expect(off.find((o) => o.toolset === "edit")).toEqual({ toolset: "edit", tools: toolsOf("edit"), enable: "add edit to --toolsets" });
  });

  it("--exclude-toolsets drops those and says how to bring them back", () => {
    const r = registry({ excludeToolsets: ["github", "notes"] });
    expect(r.entries().map((e) => e.name)).toEqual(ALL.filter((n) => !toolsOf("github").includes(n) && !toolsOf("notes").includes(n)));
    expect(r.offByConfiguration()).toEqual([
      { toolset: "notes", tools: toolsOf("notes"), enable: "remove notes from --exclude-toolsets" },
      { toolset: "github", tools: toolsOf("github"), enable: "remove github from --exclude-toolsets" },
    ]);
  });

  it("--slim keeps the slim tools of the selected toolsets", () => {
    const r = registry({ slim: true, toolsets: ["code-navigation"] });
    const slimNav = TOOLSETS.find((t) => t.name === "code-navigation")?.tools.filter((t) => t.slim) ?? [];
    expect(r.entries().map((e) => e.name)).toEqual([...slimNav.map((t) => t.name), "getToolCapabilities"]);
    expect(r.offByConfiguration().find((o) => o.toolset === "files")?.enable).toBe("add files to --toolsets");
  });

  it("refuses an unknown toolset by name, listing the real ones", () => {
    const err = (() => {
      try {
        registry({ toolsets: ["lsp"] });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as BridgeError).code).toBe("usage");
    expect((err as BridgeError).message).toMatch(/^--toolsets: unknown toolset lsp; the toolsets are workspace, code-navigation, /);
  });

  it("--profile fits a capped client by dropping tools one by one, least useful first, and keeps the rest of their toolsets", () => {
    expect(PROFILES.vscode.maxTools).toBe(100);
    const named = (...list: string[]) => list.map((n) => tool(n));
    const sets: Toolset[] = [
      { name: "workspace", purpose: "p", tools: many("w", 98) },
      { name: "github", purpose: "p", tools: named("githubListIssues", "githubListRuns") },
      { name: "automation", purpose: "p", tools: named("listClaudeTasks", "runClaudeTask") },
      { name: "bridge", purpose: "p", tools: named("getToolCapabilities") },
    ];
    // 103 tools: the Claude Code tasks go first (the client is an agent already), then GitHub's CI runs.
    const picked = selectToolsets(sets, { profile: "windsurf" });
    expect(picked.toolsets.map((t) => `${t.name}:${t.tools.map((x) => x.name).join(",")}`)).toEqual([
      `workspace:${many("w", 98)
        .map((t) => t.name)
        .join(",")}`,
      "github:githubListIssues",
      "bridge:getToolCapabilities",
    ]);
    const enable = (name: string) => `start without --profile windsurf, or name ${name} in --toolsets and leave out others`;
    expect(picked.off).toEqual([
      { toolset: "github", tools: ["githubListRuns"], enable: enable("github") },
      { toolset: "automation", tools: ["listClaudeTasks", "runClaudeTask"], enable: enable("automation") },
    ]);
    // A profile never drops a tool of a toolset named in --toolsets: it refuses to start instead.
    expect(() => selectToolsets(sets, { profile: "vscode", toolsets: ["workspace", "github", "automation"] })).toThrow(
      "--profile vscode: 103 tools remain, above 100; narrow them with --toolsets",
    );
    // Under the cap nothing goes.
    expect(selectToolsets(sets.slice(0, 2), { profile: "vscode" }).off).toEqual([]);
  });

  it("ranks every tool of the catalogue once, so a new tool cannot push a profile over 100 unnoticed", () => {
    const ranked = [...PROFILE_DROP_ORDER, ...PROFILE_KEEP];
    expect(
      ALL.filter((name) => !ranked.includes(name)),
      "rank these in src/tools/platform/profile-ranks.ts",
    ).toEqual([]);
    expect(
      ranked.filter((name) => !ALL.includes(name)),
      "no longer tools",
    ).toEqual([]);
    expect(
      ranked.filter((name, i) => ranked.indexOf(name) !== i),
      "ranked twice",
    ).toEqual([]);
    for (const profile of ["vscode", "windsurf"] as const) {
      const r = registry({ profile });
      const kept = r.entries().map((e) => e.name);
      expect(kept.length).toBeLessThanOrEqual(PROFILES[profile].maxTools);
      // Everything ranked to stay stays, search and edit whole among it.
      expect(PROFILE_KEEP.filter((name) => !kept.includes(name))).toEqual([]);
      for (const name of ["search", "edit", "debug"]) expect(r.offByConfiguration().find((o) => o.toolset === name)).toBeUndefined();
      // getToolCapabilities names every tool left out, once, with the toolset it belongs to.
      const off = r.offByConfiguration();
      expect([...kept, ...off.flatMap((o) => o.tools)].sort()).toEqual([...ALL].sort());
      for (const o of off) for (const name of o.tools) expect(toolsOf(o.toolset)).toContain(name);
    }
  });
});

describe("getToolCapabilities", () => {
  it("its result schema takes what the registry reports as off (the dispatcher checks results against it)", () => {
    const off = registry({ excludeToolsets: ["github"] }).offByConfiguration();
    expect(off).toHaveLength(1);
    const schema = getToolCapabilities.output;
    if (schema === undefined) throw new Error("getToolCapabilities has no output schema");
    const result = v.safeParse(schema, {
      extensionConnected: false,
      executables: { git: null },
      available: 0,
      unavailable: [],
      fallback: [],
      lsp: { servers: [] },
      offByConfiguration: off.map((o) => ({ ...o, tools: [...o.tools] })),
    });
    const issues = result.success ? [] : result.issues.map((i) => v.getDotPath(i) ?? i.message);
    // Only the lsp part may disagree with this hand-made value; offByConfiguration must not.
    expect(issues.filter((p) => String(p).startsWith("offByConfiguration"))).toEqual([]);
    const bad = v.safeParse(schema, { offByConfiguration: [{ toolset: "github" }] });
    expect(bad.success ? [] : bad.issues.map((i) => v.getDotPath(i))).toContain("offByConfiguration.0.tools");
  });
});
