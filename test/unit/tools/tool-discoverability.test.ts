// "A tool nobody can find does not exist": Claude Code shows the model only tool names, search hints
// and the instructions until ToolSearch loads a tool. For the words a model would use, the tool that
// does the job (or one of the tools that do it) must rank in the first three of every built-in tool.
import { describe, expect, it } from "vitest";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { rankTools, searchWords } from "../../helpers/tool-search-rank.ts";

const ALL = TOOLSETS.flatMap((t) => t.tools);
/** Tool names that match at all, best first. */
const ranking = (query: string) =>
  rankTools(ALL, query)
    .filter((t) => t.score > 0)
    .map((t) => t.name);

const PHRASES: [query: string, tool: string | string[]][] = [
  ["read a file", "readFile"],
  ["show the directory structure", "getFileTree"],
  ["find files by name", "findFiles"],
  ["what kind of project is this", "getProjectInfo"],
  ["go to definition", "goToDefinition"],
  ["find usages of a function", "findReferences"],
  ["who calls this function", "getCallHierarchy"],
  ["type errors", ["getDiagnostics", "jumpToFirstError"]],
  ["compile errors in the project", ["getDiagnostics", "jumpToFirstError"]],
  ["hover documentation", "getHover"],
  ["outline of a file", "getDocumentSymbols"],
  ["find a class by name across the project", "searchWorkspaceSymbols"],
  ["subclasses of a base class", "getTypeHierarchy"],
  ["quick fix", "getCodeActions"],
  ["what text is selected in the editor", ["getCurrentSelection", "getLatestSelection"]],
  ["unsaved changes in the editor", ["checkDocumentDirty", "getBufferContent"]],
  ["open the file in the editor for the user", "openFile"],
  ["AI comments left in the code", "getAIComments"],
  ["create a new file", "createFile"],
  ["delete file", "deleteFile"],
  ["move a file", "renameFile"],
  ["replace text in a file", "replaceBlock"],
  ["preview a diff before applying", "previewEdit"],
  ["atomic multi-file edit", "beginTransaction"],
  ["grep for a regex in files", "searchWorkspace"],
  ["search and replace across files", "searchAndReplace"],
  ["which tests cover this file", "findRelatedTests"],
  ["todo checklist plan", "createPlan"],
  ["git status", "getGitStatus"],
  ["what changed unstaged diff", "getGitDiff"],
  ["commit history", "getGitLog"],
  ["who wrote this line", "gitBlame"],
  ["commit changes", "gitCommit"],
  ["switch branch", "gitCheckout"],
  ["push branch to remote", "gitPush"],
  ["open a pull request", "githubCreatePR"],
  ["why did CI fail", "githubGetRunLogs"],
  ["list github issues", "githubListIssues"],
  ["run a shell command", "runCommand"],
  ["run the tests", "runTests"],
  ["code coverage", "getCodeCoverage"],
  ["send an http request to an api", "sendHttpRequest"],
  ["fix lint errors", "fixAllLintErrors"],
  ["format the file with prettier", "formatDocument"],
  ["security vulnerabilities in dependencies", "auditDependencies"],
  ["which tools are unavailable", "getToolCapabilities"],
];

describe("tool search finds each tool by a model's words", () => {
  it.each(PHRASES.map(([query, tool]) => [query, [tool].flat()] as const))("%s -> %s", (query, tools) => {
    const ranked = ranking(query);
    expect(
      ranked.slice(0, 3).some((name) => tools.includes(name)),
      `ranked: ${ranked.slice(0, 6).join(", ")}`,
    ).toBe(true);
  });

  it("covers every toolset with at least one phrase, and names only real tools", () => {
    const names = new Set(ALL.map((t) => t.name));
    const phrased = new Set(PHRASES.flatMap(([, tool]) => tool));
    for (const tool of phrased) expect(names.has(tool), tool).toBe(true);
    for (const toolset of TOOLSETS)
      expect(
        toolset.tools.some((t) => phrased.has(t.name)),
        toolset.name,
      ).toBe(true);
  });

  it("splits names and hints into words the way the ranking reads them", () => {
    expect(searchWords("findReferences usages")).toEqual(["find", "referenc", "usag"]);
    expect(ranking("zzzz")).toEqual([]);
  });
});
