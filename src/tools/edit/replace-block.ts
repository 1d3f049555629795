// replaceBlock: exact-text replacement, the edit a model makes most. The text must occur once (or
// `occurrence`/`replaceAll` says which); a miss shows the nearest places with line numbers.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { EditFields, replaceBlockIn } from "./edit-operation.ts";
import { editOneFile, FilePathField, VersionFields } from "./edit-one-file.ts";

export default defineTool({
  name: "replaceBlock",
  title: "Replace exact text",
  description:
    "Replaces an exact block of text in a file; a missing or ambiguous match fails with the nearest candidates and their line numbers. Keeps line endings; returns the diff.",
  searchHint: "replace text block exact match edit file string old new content",
  input: v.strictObject({
    filePath: FilePathField,
    oldContent: v.pipe(
      v.string(),
      v.minLength(1),
      v.description("The exact text to replace (indentation included); \\n line breaks match CRLF files too."),
    ),
    newContent: v.pipe(v.string(), v.description('What replaces it ("" deletes it).')),
    occurrence: EditFields.occurrence,
    replaceAll: EditFields.replaceAll,
    ...VersionFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    return editOneFile(ctx, input.filePath, { expected: input, compute: (doc) => replaceBlockIn(doc, input), write: true });
  },
});
