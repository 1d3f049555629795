// How the bridge imports each served toolset on its first call: one dynamic import per toolset
// folder (a chunk of its own in the Node bundle, scripts/bundle.mjs), composed as src/tools/toolsets.ts
// composes them (a unit test holds the two to the same tools). Keyed by the served toolset's name,
// as the tool manifest names it.
import type { Toolset } from "../tools/platform/toolset.ts";

/** The IDE link's own toolset's key (src/tools/ide-link-toolsets.ts). */
export const IDE_LINK_SET = "ide";

const joined = (base: Toolset, more: Toolset["tools"]): Toolset => ({ ...base, tools: [...base.tools, ...more] });

export const TOOLSET_LOADERS: Readonly<Record<string, () => Promise<Toolset>>> = {
  workspace: async () => {
    const [{ workspaceToolset }, { workspaceFolderTools }] = await Promise.all([
      import("../tools/workspace/index.ts"),
      import("../tools/workspace/folder-tools.ts"),
    ]);
    return joined(workspaceToolset, workspaceFolderTools);
  },
  "code-navigation": async () => (await import("../tools/lsp/index.ts")).codeNavigationToolset,
  // The analysis tools are served under code-intelligence (src/tools/toolsets.ts says why).
  "code-intelligence": async () => {
    const [{ codeIntelligenceToolset }, { analysisToolset }] = await Promise.all([
      import("../tools/lsp/index.ts"),
      import("../tools/analysis/index.ts"),
    ]);
    return joined(codeIntelligenceToolset, analysisToolset.tools);
  },
  files: async () => (await import("../tools/files/index.ts")).filesToolset,
  editor: async () => (await import("../tools/editor/index.ts")).editorToolset,
  edit: async () => (await import("../tools/edit/index.ts")).editToolset,
  search: async () => (await import("../tools/search/index.ts")).searchToolset,
  notes: async () => (await import("../tools/notes/index.ts")).notesToolset,
  git: async () => (await import("../tools/git/index.ts")).gitToolset,
  github: async () => (await import("../tools/github/index.ts")).githubToolset,
  commands: async () => (await import("../tools/commands/index.ts")).commandsToolset,
  terminal: async () => (await import("../tools/terminal/index.ts")).terminalToolset,
  vscode: async () => (await import("../tools/vscode/index.ts")).vscodeToolset,
  quality: async () => (await import("../tools/quality/index.ts")).qualityToolset,
  debug: async () => (await import("../tools/debug/index.ts")).debugToolset,
  automation: async () => (await import("../tools/automation/index.ts")).automationToolset,
  bridge: async () => (await import("../tools/bridge/index.ts")).bridgeToolset,
  [IDE_LINK_SET]: async () => (await import("../tools/editor/ide/index.ts")).ideLinkToolset,
};
