// "A tool nobody can find does not exist": Claude Code shows the model only tool names and the
// server's instructions until ToolSearch loads a tool. The task phrases of
// test/helpers/tool-search-phrases.ts, ranked the way the CLI's ToolSearch ranks (its replica in
// test/helpers/tool-search-rank.ts, held to the real CLI by test/e2e/claude-tool-search.test.ts),
// find a tool that does the task in the first five for at least 95 % of the phrases.
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { TASK_PHRASES } from "../../helpers/tool-search-phrases.ts";
import { queryWords, toolSearch } from "../../helpers/tool-search-rank.ts";

const ALL = TOOLSETS.flatMap((t) => t.tools);
const UP_FRONT = new Set(ALL.filter((t) => t.alwaysLoad).map((t) => t.name));
const DEFERRED = ALL.filter((t) => !t.alwaysLoad);
const MIN_RECALL = 0.95;

describe("tool search finds a tool for each task phrase", () => {
  it(`recall@5 of at least ${MIN_RECALL * 100} %`, () => {
    const missed = TASK_PHRASES.filter(([phrase, tools]) => {
      const found = toolSearch(DEFERRED, phrase).map((t) => t.name);
      return !tools.some((t) => UP_FRONT.has(t) || found.includes(t));
    });
    const report = missed.map(
      ([phrase, tools]) =>
        `  "${phrase}" wants ${tools.join("|")}; got ${toolSearch(DEFERRED, phrase)
          .map((t) => `${t.name} ${t.score}`)
          .join(", ")}`,
    );
    const recall = (TASK_PHRASES.length - missed.length) / TASK_PHRASES.length;
    expect(recall, `missed ${missed.length} of ${TASK_PHRASES.length}:\n${report.join("\n")}`).toBeGreaterThanOrEqual(MIN_RECALL);
  });

  it("has at least 80 phrases, covers every toolset, and names only real tools", () => {
    expect(TASK_PHRASES.length).toBeGreaterThanOrEqual(80);
    const names = new Set(ALL.map((t) => t.name));
    const phrased = new Set(TASK_PHRASES.flatMap(([, tools]) => tools));
    for (const tool of phrased) expect(names.has(tool), tool).toBe(true);
    for (const toolset of TOOLSETS)
      expect(
        toolset.tools.some((t) => phrased.has(t.name)),
        toolset.name,
      ).toBe(true);
  });

  it("reads a query as the CLI does: lowercased, split on spaces, words inside a tool's name count", () => {
    expect(queryWords("  Type ERRORS\tin a  file ")).toEqual(["type", "errors", "in", "a", "file"]);
    const [first] = toolSearch(ALL, "stash list");
    expect(first?.name).toBe("gitStashList");
    expect(toolSearch(ALL, "zzzz")).toEqual([]);
  });
});
