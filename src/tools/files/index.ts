// The files toolset: creating, deleting (to a trash), renaming and reading files as saved, and
// watching them for changes. Every path goes through the workspace jail.
import { defineToolset } from "../platform/toolset.ts";
import createFile from "./create-file.ts";
import deleteFile from "./delete-file.ts";
import getBufferContent from "./get-buffer-content.ts";
import getFileChanges from "./get-file-changes.ts";
import renameFile from "./rename-file.ts";
import unwatchFiles from "./unwatch-files.ts";
import watchFiles from "./watch-files.ts";

export const filesToolset = defineToolset({
  name: "files",
  purpose: "create, delete, rename/move files and directories, watch for changes",
  tools: [createFile, deleteFile, renameFile, getBufferContent, watchFiles, getFileChanges, unwatchFiles],
});
