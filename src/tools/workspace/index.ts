// The workspace toolset: orientation and reading, all read-only and all through the jail.
import type { Tool } from "../define-tool.ts";
import findFiles from "./find-files.ts";
import getFileTree from "./get-file-tree.ts";
import getProjectInfo from "./get-project-info.ts";
import getWorkspaceFolders from "./get-workspace-folders.ts";
import readFile from "./read-file.ts";

export const workspaceTools: Tool[] = [getWorkspaceFolders, getProjectInfo, getFileTree, findFiles, readFile];
