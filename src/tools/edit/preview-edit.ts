// previewEdit: the diff an edit would make, without writing anything, in any of the three forms.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { applyOperation, EditFields } from "./edit-operation.ts";
import { editOneFile, FilePathField } from "./edit-one-file.ts";

export default defineTool({
  name: "previewEdit",
  title: "Preview an edit",
  description:
    "Shows the unified diff an edit would make without writing: line/column edits, oldContent/newContent, or whole new content. Checks the edit as the real one would.",
  searchHint: "preview edit diff dry run show changes before applying",
  input: v.strictObject({ filePath: FilePathField, ...EditFields }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    return editOneFile(ctx, input.filePath, { compute: (doc) => applyOperation(doc, input), write: false });
  },
});
