// The editor toolset: what the user sees in VS Code (selection, open tabs, unsaved buffers, AI
// comments) and acting on it (open, save, close). Every tool needs the VS Code extension.
import { defineToolset } from "../platform/toolset.ts";
import checkDocumentDirty from "./check-document-dirty.ts";
import closeTab from "./close-tab.ts";
import getAIComments from "./get-ai-comments.ts";
import getCurrentSelection from "./get-current-selection.ts";
import getLatestSelection from "./get-latest-selection.ts";
import getOpenEditors from "./get-open-editors.ts";
import openFile from "./open-file.ts";
import saveDocument from "./save-document.ts";

export const editorToolset = defineToolset({
  name: "editor",
  purpose: "VS Code: selection, open editors, unsaved changes, AI comments; open, save, close",
  tools: [getCurrentSelection, getLatestSelection, getOpenEditors, openFile, closeTab, saveDocument, checkDocumentDirty, getAIComments],
});
