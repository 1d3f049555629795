// `--help` says what --slim keeps: the language-server tools, and by name the few others. Checked
// against the registry, so the text cannot drift from the tools again (it once named editor and
// debugger tools, of which --slim keeps none).
import { describe, expect, it } from "vitest";
import { HELP_TEXT } from "../../../src/config/cli.ts";
import { codeIntelligenceToolset, codeNavigationToolset } from "../../../src/tools/lsp/index.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const slimText = (HELP_TEXT.split("\n  --slim")[1] ?? "").split("\n  --")[0] ?? "";
const languageServer = new Set([codeNavigationToolset.name, codeIntelligenceToolset.name]);

describe("--slim in --help", () => {
  it("names every slim tool outside the language-server toolsets", () => {
    const others = TOOLSETS.filter((t) => !languageServer.has(t.name)).flatMap((t) =>
      t.tools.filter((tool) => tool.slim).map((tool) => tool.name),
    );
    expect(others.length).toBeGreaterThan(0);
    for (const name of others) expect(slimText.replace(/\s+/g, " "), name).toContain(name);
  });

  it("keeps none of the file, editor, git, terminal or debugger tools it says it drops", () => {
    const dropped = TOOLSETS.filter((t) => ["files", "edit", "git", "github", "commands"].includes(t.name));
    expect(dropped.map((t) => t.name).sort()).toEqual(["commands", "edit", "files", "git", "github"]);
    expect(dropped.flatMap((t) => t.tools.filter((tool) => tool.slim).map((tool) => tool.name))).toEqual([]);
    expect(slimText).toMatch(/no file, editor, git,\s+terminal or debugger tools/);
  });
});
