// The tool manifest the bridge lists its tools from before their modules load must be the live
// definitions, field for field: the committed file, what tools/list shows from it (default, --slim,
// the IDE link, a --profile), the instructions, and the toolsets the loaders import.
import { describe, expect, it } from "vitest";
import { parseManifest, manifestOf, stubToolsets, toolIndexModule } from "../../../src/startup/tool-manifest.ts";
import { TOOL_INDEX } from "../../../src/startup/tool-index.generated.ts";
import { TOOL_LINES, TOOLSET_PURPOSES } from "../../../src/startup/tool-manifest.generated.ts";
import { IDE_LINK_SET, TOOLSET_LOADERS } from "../../../src/startup/toolset-loaders.ts";
import { buildInstructions } from "../../../src/tools/platform/instructions.ts";
import { ToolRegistry, type RegistryOptions } from "../../../src/tools/platform/registry.ts";
import { type Toolset, withIdeLink } from "../../../src/tools/platform/toolset.ts";
import { IDE_LINK_TOOLSET, TOOLSETS } from "../../../src/tools/toolsets.ts";

const LIVE = [...TOOLSETS, IDE_LINK_TOOLSET];
const committed = parseManifest(TOOLSET_PURPOSES, TOOL_LINES);
const stubs = stubToolsets(committed, {
  run: () => Promise.reject(new Error("not run here")),
  liveOutput: () => undefined,
});
const stubSets = stubs.filter((t) => t.name !== IDE_LINK_SET);
const stubIde = stubs.find((t) => t.name === IDE_LINK_SET) as Toolset;

describe("the tool manifest", () => {
  it("is the live definitions (run `npm run tool-manifest` when this fails)", () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(manifestOf(LIVE))));
  });

  it("has an index for the shim that is the live definitions' too (run `npm run tool-manifest` when this fails)", () => {
    const index = toolIndexModule(manifestOf(LIVE));
    const literal = index.slice(index.indexOf("= [") + 2, index.lastIndexOf("]") + 1).replace(/,\n\]$/, "\n]");
    expect(TOOL_INDEX).toEqual(JSON.parse(literal));
  });

  const options: [string, Omit<RegistryOptions, "maxResultChars">][] = [
    ["by default", { slim: false }],
    ["with --slim", { slim: true }],
    ["with --profile vscode", { slim: false, profile: "vscode" }],
  ];
  it.each(options)("lists what the live tools list, %s", (_, choice) => {
    const live = new ToolRegistry(TOOLSETS, { ...choice, maxResultChars: 400_000 });
    const listed = new ToolRegistry(stubSets, { ...choice, maxResultChars: 400_000 });
    expect(listed.entries()).toEqual(live.entries());
    expect(listed.list()).toEqual(live.list());
    expect(listed.off).toEqual(live.off);
    const instructions = (r: ToolRegistry) => buildInstructions(r.toolsets, { root: "/w/project" });
    expect(instructions(listed)).toBe(instructions(live));
  });

  it("lists what the live tools list on Claude Code's IDE link", () => {
    const live = new ToolRegistry(withIdeLink(IDE_LINK_TOOLSET, TOOLSETS), { slim: false, maxResultChars: 50_000 });
    const listed = new ToolRegistry(withIdeLink(stubIde, stubSets), { slim: false, maxResultChars: 50_000 });
    expect(listed.entries()).toEqual(live.entries());
  });

  it("has a loader for each toolset that imports exactly its live tools", async () => {
    expect(Object.keys(TOOLSET_LOADERS).sort()).toEqual(LIVE.map((t) => t.name).sort());
    for (const toolset of LIVE) {
      const loaded = await TOOLSET_LOADERS[toolset.name]?.();
      expect(loaded?.name).toBe(toolset.name);
      expect(loaded?.purpose).toBe(toolset.purpose);
      // The very same Tool objects: the loader composes what src/tools/toolsets.ts composes.
      expect(loaded?.tools).toEqual(toolset.tools);
      for (const [i, tool] of (loaded?.tools ?? []).entries()) expect(tool).toBe(toolset.tools[i]);
    }
  });
});
