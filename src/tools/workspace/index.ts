// The workspace toolset: orientation and reading, all read-only and all through the jail.
import { defineToolset } from "../platform/toolset.ts";
import findFiles from "./find-files.ts";
import getFileTree from "./get-file-tree.ts";
import getProjectInfo from "./get-project-info.ts";
import getWorkspaceFolders from "./get-workspace-folders.ts";
import readFile from "./read-file.ts";

export const workspaceToolset = defineToolset({
  name: "workspace",
  purpose: "workspace folders, project kind, file tree, find files by name, read files",
  tools: [getWorkspaceFolders, getProjectInfo, getFileTree, findFiles, readFile],
});
