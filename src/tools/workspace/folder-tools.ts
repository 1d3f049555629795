// The workspace toolset's tools that change which folders a session works in: the active folder of
// a multi-root workspace, and child bridges on other folders.
import setActiveWorkspaceFolder from "./set-active-workspace-folder.ts";
import spawnWorkspace from "./spawn-workspace.ts";
import stopWorkspace from "./stop-workspace.ts";

export const workspaceFolderTools = [setActiveWorkspaceFolder, spawnWorkspace, stopWorkspace];
