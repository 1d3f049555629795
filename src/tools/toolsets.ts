// Every toolset of the bridge, in the order tools/list and the instructions show them.
import { bridgeToolset } from "./bridge/index.ts";
import { codeIntelligenceToolset, codeNavigationToolset } from "./lsp/index.ts";
import type { Toolset } from "./toolset.ts";
import { workspaceToolset } from "./workspace/index.ts";

export const TOOLSETS: readonly Toolset[] = [workspaceToolset, codeNavigationToolset, codeIntelligenceToolset, bridgeToolset];
