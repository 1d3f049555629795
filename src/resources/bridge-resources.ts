// The bridge's own resources besides files: git status and diff, diagnostics, the latest test run,
// and, while VS Code is connected, the active editor's selection and the open editors. Each is read
// through the tool that answers the same question, so a resource and a tool never disagree.
import type { ResourceContext } from "./resource-context.ts";

export interface BridgeResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Listed only while the VS Code extension is connected. */
  needsExtension?: boolean;
  read(ctx: ResourceContext): Promise<string>;
}

export const GIT_STATUS_URI = "bridge://git/status";
export const GIT_DIFF_URI = "bridge://git/diff";
export const DIAGNOSTICS_URI = "bridge://diagnostics";
export const TEST_RESULTS_URI = "bridge://tests/latest";
export const SELECTION_URI = "bridge://editor/selection";
export const OPEN_EDITORS_URI = "bridge://editor/open";
/** Diagnostics of one file: bridge://diagnostics/<workspace-relative path>. */
export const FILE_DIAGNOSTICS_PREFIX = `${DIAGNOSTICS_URI}/`;

async function viaTool(ctx: ResourceContext, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const outcome = await ctx.tool(name, args);
  return outcome.text;
}

export const BRIDGE_RESOURCES: readonly BridgeResource[] = [
  {
    uri: GIT_STATUS_URI,
    name: "git-status",
    title: "Git status",
    description: "Branch, upstream, ahead/behind and the staged, unstaged, untracked and conflicted files (getGitStatus).",
    mimeType: "application/json",
    read: (ctx) => viaTool(ctx, "getGitStatus"),
  },
  {
    uri: GIT_DIFF_URI,
    name: "git-diff",
    title: "Working diff",
    description: "The uncommitted changes of the working tree against the index (getGitDiff).",
    mimeType: "text/x-diff",
    read: (ctx) => viaTool(ctx, "getGitDiff"),
  },
  {
    uri: DIAGNOSTICS_URI,
    name: "diagnostics",
    title: "Workspace diagnostics",
    description: "Errors and warnings of the whole workspace from the language servers and linters (getDiagnostics).",
    mimeType: "application/json",
    read: (ctx) => viaTool(ctx, "getDiagnostics"),
  },
  {
    uri: TEST_RESULTS_URI,
    name: "test-results",
    title: "Latest test run",
    description: "Counts and failing tests of the latest runTests run in this bridge.",
    mimeType: "application/json",
    read: async (ctx) => {
      const run = ctx.recentTests();
      if (run === undefined) return JSON.stringify({ run: null, note: "No test run yet in this bridge; runTests runs the tests." });
      return JSON.stringify({ ...run, at: new Date(run.at).toISOString() });
    },
  },
  {
    uri: SELECTION_URI,
    name: "editor-selection",
    title: "Active editor and selection",
    description: "The file in VS Code's active editor and the selected text (getCurrentSelection).",
    mimeType: "application/json",
    needsExtension: true,
    read: (ctx) => viaTool(ctx, "getCurrentSelection"),
  },
  {
    uri: OPEN_EDITORS_URI,
    name: "open-editors",
    title: "Open editors",
    description: "The tabs open in VS Code, with which is active and dirty (getOpenEditors).",
    mimeType: "application/json",
    needsExtension: true,
    read: (ctx) => viaTool(ctx, "getOpenEditors"),
  },
];
