// Claude Code's IDE link (protocol.md A4): the tools a `claude --ide` session calls on the lock
// file's WebSocket, with exactly the names, inputs and answers of VS Code's own integration. Served
// only there (src/transports/ws/claude-code-socket.ts), in place of the bridge's tools of the same
// names, so each caller gets its own shape (getDiagnostics {uri} here, {file, severity} elsewhere).
import { defineToolset } from "../../platform/toolset.ts";
import checkDocumentDirty from "./check-document-dirty.ts";
import closeAllDiffTabs from "./close-all-diff-tabs.ts";
import closeTab from "./close-tab.ts";
import executeCode from "./execute-code.ts";
import getCurrentSelection from "./get-current-selection.ts";
import getDiagnostics from "./get-diagnostics.ts";
import getLatestSelection from "./get-latest-selection.ts";
import getOpenEditors from "./get-open-editors.ts";
import getWorkspaceFolders from "./get-workspace-folders.ts";
import openDiff from "./open-diff.ts";
import openFile from "./open-file.ts";
import saveDocument from "./save-document.ts";

export const ideLinkToolset = defineToolset({
  name: "ide",
  purpose: "Claude Code's IDE link: open files and diffs, selections, open editors, diagnostics",
  tools: [
    openFile,
    openDiff,
    getCurrentSelection,
    getLatestSelection,
    getOpenEditors,
    getWorkspaceFolders,
    getDiagnostics,
    checkDocumentDirty,
    saveDocument,
    closeTab,
    closeAllDiffTabs,
    executeCode,
  ],
});
