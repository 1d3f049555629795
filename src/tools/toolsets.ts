// Every toolset of the bridge, in the order tools/list and the instructions show them, loaded at once:
// for tests and the tool manifest (scripts/tool-manifest.mjs). The bridge lists its tools from the
// manifest and loads each toolset on its first call (src/startup/toolset-loaders.ts, which a unit test
// holds to this list).
import { analysisToolset } from "./analysis/index.ts";
import { automationToolset } from "./automation/index.ts";
import { bridgeToolset } from "./bridge/index.ts";
import { commandsToolset } from "./commands/index.ts";
import { debugToolset } from "./debug/index.ts";
import { editToolset } from "./edit/index.ts";
import { editorToolset } from "./editor/index.ts";
import { ideLinkToolset } from "./editor/ide/index.ts";
import { filesToolset } from "./files/index.ts";
import { codeIntelligenceToolset, codeNavigationToolset } from "./lsp/index.ts";
import { gitToolset } from "./git/index.ts";
import { githubToolset } from "./github/index.ts";
import { notesToolset } from "./notes/index.ts";
import { qualityToolset } from "./quality/index.ts";
import { searchToolset } from "./search/index.ts";
import type { Toolset } from "./platform/toolset.ts";
import { terminalToolset } from "./terminal/index.ts";
import { vscodeToolset } from "./vscode/index.ts";
import { workspaceToolset } from "./workspace/index.ts";
import { workspaceFolderTools } from "./workspace/folder-tools.ts";

export const TOOLSETS: readonly Toolset[] = [
  { ...workspaceToolset, tools: [...workspaceToolset.tools, ...workspaceFolderTools] },
  codeNavigationToolset,
  // The analysis tools are served under code-intelligence: the 2 KB instructions have no room for another purpose line.
  { ...codeIntelligenceToolset, tools: [...codeIntelligenceToolset.tools, ...analysisToolset.tools] },
  filesToolset,
  editorToolset,
  editToolset,
  searchToolset,
  notesToolset,
  gitToolset,
  githubToolset,
  commandsToolset,
  terminalToolset,
  vscodeToolset,
  qualityToolset,
  debugToolset,
  automationToolset,
  bridgeToolset,
];

/** Claude Code's IDE link's own toolset (src/tools/ide-link-toolsets.ts), in the manifest after TOOLSETS. */
export const IDE_LINK_TOOLSET: Toolset = ideLinkToolset;
