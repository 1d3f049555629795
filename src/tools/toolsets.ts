// Every toolset of the bridge, in the order tools/list and the instructions show them.
import { bridgeToolset } from "./bridge/index.ts";
import { editToolset } from "./edit/index.ts";
import { filesToolset } from "./files/index.ts";
import { notesToolset } from "./notes/index.ts";
import { searchToolset } from "./search/index.ts";
import type { Toolset } from "./toolset.ts";
import { workspaceToolset } from "./workspace/index.ts";

export const TOOLSETS: readonly Toolset[] = [workspaceToolset, filesToolset, editToolset, searchToolset, notesToolset, bridgeToolset];
