// The vscode toolset: VS Code itself (allowed commands, tasks, workspace settings, line decorations,
// the clipboard, Jupyter notebooks). Every tool needs the VS Code extension, but captureScreenshot,
// which answers why no host allows one.
import { defineToolset } from "../platform/toolset.ts";
import captureScreenshot from "./capture-screenshot.ts";
import clearEditorDecorations from "./clear-editor-decorations.ts";
import executeVSCodeCommand from "./execute-vscode-command.ts";
import getNotebookCells from "./get-notebook-cells.ts";
import getNotebookOutput from "./get-notebook-output.ts";
import getWorkspaceSettings from "./get-workspace-settings.ts";
import listVSCodeCommands from "./list-vscode-commands.ts";
import listVSCodeTasks from "./list-vscode-tasks.ts";
import readClipboard from "./read-clipboard.ts";
import runNotebookCell from "./run-notebook-cell.ts";
import runVSCodeTask from "./run-vscode-task.ts";
import setEditorDecorations from "./set-editor-decorations.ts";
import setWorkspaceSetting from "./set-workspace-setting.ts";
import writeClipboard from "./write-clipboard.ts";

export const vscodeToolset = defineToolset({
  name: "vscode",
  purpose: "VS Code commands, tasks, settings, decorations, clipboard",
  tools: [
    executeVSCodeCommand,
    listVSCodeCommands,
    listVSCodeTasks,
    runVSCodeTask,
    getWorkspaceSettings,
    setWorkspaceSetting,
    setEditorDecorations,
    clearEditorDecorations,
    readClipboard,
    writeClipboard,
    getNotebookCells,
    getNotebookOutput,
    runNotebookCell,
    captureScreenshot,
  ],
});
