// The edit toolset: changing file content, one file or several together, always as a diff.
import { defineToolset } from "../platform/toolset.ts";
import beginTransaction from "./begin-transaction.ts";
import commitTransaction from "./commit-transaction.ts";
import editText from "./edit-text.ts";
import previewEdit from "./preview-edit.ts";
import replaceBlock from "./replace-block.ts";
import rollbackTransaction from "./rollback-transaction.ts";
import stageEdit from "./stage-edit.ts";

export const editToolset = defineToolset({
  name: "edit",
  purpose: "replace text, line edits, diff preview, atomic multi-file transactions",
  tools: [replaceBlock, editText, previewEdit, beginTransaction, stageEdit, commitTransaction, rollbackTransaction],
});
