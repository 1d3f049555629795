// stageEdit: adds one edit of one file to a transaction, writing nothing. Edits of the same file
// build on each other (each applies to the text as staged so far); the diff shown is the file's
// whole staged change against disk. A file that does not exist yet is created by `content`.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { applyOperation, EditFields } from "./edit-operation.ts";
import { FilePathField, VersionFields } from "./edit-one-file.ts";
import { encodeDocument } from "../../services/documents/text-document.ts";
import { restage, stagedFile } from "../../services/edit-transactions/staging.ts";
import { TRANSACTIONS } from "../../services/edit-transactions/transaction-store.ts";

export default defineTool({
  name: "stageEdit",
  title: "Stage an edit in a transaction",
  description:
    "Stages an edit of one file in a transaction without writing: line/column edits, oldContent/newContent, or whole content (creates a new file). Returns the file's staged diff.",
  searchHint: "stage edit transaction add change pending multi-file",
  input: v.strictObject({
    transactionId: v.pipe(v.string(), v.description("Transaction id.")),
    filePath: FilePathField,
    ...EditFields,
    ...VersionFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const tx = ctx.state(TRANSACTIONS).get(ctx.session, input.transactionId);
    const staged = await stagedFile(ctx, tx, { ...input, creating: input.content !== undefined });
    let next: string;
    try {
      next = applyOperation({ ...staged.file.base, text: staged.file.text }, input);
    } catch (err) {
      // A refused stage leaves the transaction as it was.
      if (staged.added) tx.files.delete(staged.file.base.path);
      throw err;
    }
    restage(ctx, tx, { staged, text: next });
    const { base, text } = staged.file;
    const report = await editReport(
      [{ label: base.label, before: staged.file.create ? undefined : base.text, after: text, data: encodeDocument(base, text) }],
      { written: false },
    );
    return `Staged in ${tx.id} (${tx.files.size} file${tx.files.size === 1 ? "" : "s"}); nothing is written until commitTransaction.\n${report}`;
  },
});
