// editText: line/column edits of one file, several in one call, applied all or none.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { MAX_EDITS } from "./edit-operation.ts";
import { editOneFile, FilePathField, VersionFields } from "./edit-one-file.ts";
import { applyLineEdits, LineEdit } from "./line-edits.ts";
import { fitLineBreaks } from "../../services/documents/text-document.ts";

export default defineTool({
  name: "editText",
  title: "Edit text by line and column",
  description:
    "Edits a file by 1-based line/column ranges (replace, insert, delete), several edits in one call, all or none; keeps line endings and mode. Returns the unified diff.",
  searchHint: "edit file lines columns insert delete replace range modify code",
  input: v.strictObject({
    filePath: FilePathField,
    edits: v.pipe(
      v.array(LineEdit),
      v.minLength(1),
      v.maxLength(MAX_EDITS),
      v.description("Non-overlapping edits, all against the current file."),
    ),
    ...VersionFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    return editOneFile(ctx, input.filePath, {
      expected: input,
      compute: (doc) => applyLineEdits(doc.text, input.edits, { toFileEol: (t) => fitLineBreaks(doc, t) }),
      write: true,
    });
  },
});
