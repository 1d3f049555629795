// The search toolset: finding text in the workspace (and replacing it), the tests of a file, and
// the context of the whole project.
import { defineToolset } from "../platform/toolset.ts";
import contextBundle from "./context-bundle.ts";
import findRelatedTests from "./find-related-tests.ts";
import getProjectContext from "./get-project-context.ts";
import searchAndReplace from "./search-and-replace.ts";
import searchWorkspace from "./search-workspace.ts";

export const searchToolset = defineToolset({
  name: "search",
  purpose: "grep/ripgrep code search, search and replace across files, related tests, context bundle",
  // Each tool uses rg when it is on PATH and has a built-in fallback without it.
  defaults: { requires: { optionalProbes: ["rg"] } },
  tools: [searchWorkspace, searchAndReplace, findRelatedTests, getProjectContext, contextBundle],
});
