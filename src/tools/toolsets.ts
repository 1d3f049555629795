// Every toolset of the bridge, in the order tools/list and the instructions show them.
import { bridgeToolset } from "./bridge/index.ts";
import { commandsToolset } from "./commands/index.ts";
import { gitToolset } from "./git/index.ts";
import { githubToolset } from "./github/index.ts";
import { qualityToolset } from "./quality/index.ts";
import type { Toolset } from "./toolset.ts";
import { workspaceToolset } from "./workspace/index.ts";

export const TOOLSETS: readonly Toolset[] = [
  workspaceToolset,
  gitToolset,
  githubToolset,
  commandsToolset,
  qualityToolset,
  bridgeToolset,
];
