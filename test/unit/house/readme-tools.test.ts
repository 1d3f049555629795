// The README's tool tables (made by scripts/tool-table.mjs) must name every registered tool, and no
// tool that is gone.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const toolsSection = readme.slice(readme.indexOf("\n## Tools"), readme.indexOf("\n## ", readme.indexOf("\n## Tools") + 1));

describe("README tools", () => {
  it("lists every tool of every toolset", () => {
    const missing = TOOLSETS.flatMap((t) => t.tools.map((tool) => tool.name)).filter((name) => !toolsSection.includes(`| \`${name}\` |`));
    expect(missing, "run `npm run build && node scripts/tool-table.mjs` and paste the tables").toEqual([]);
  });

  it("names no tool that is not registered", () => {
    const names = new Set(TOOLSETS.flatMap((t) => t.tools.map((tool) => tool.name)));
    const listed = [...toolsSection.matchAll(/^\| `([A-Za-z0-9_.-]+)` \|/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((name) => name !== undefined && !names.has(name))).toEqual([]);
  });
});
