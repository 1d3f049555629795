// stageEdit: adds one edit of one file to a transaction, writing nothing. Edits of the same file
// build on each other (each applies to the text as staged so far); the diff shown is the file's
// whole staged change against disk. A file that does not exist yet is created by `content`.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { hashMatches } from "../../workspace/file-version.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { applyOperation, EditFields, type EditOperation } from "./edit-operation.ts";
import { FilePathField, VersionFields } from "./edit-one-file.ts";
import { encodeDocument, newDocument, readDocument, type ExpectedVersion } from "../../services/documents/text-document.ts";
import {
  MAX_FILES_PER_TRANSACTION,
  MAX_STAGED_CHARS,
  stagedChars,
  TRANSACTIONS,
  type StagedFile,
  type Transaction,
} from "./transaction-store.ts";

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
    const staged = await stagedFile(ctx, tx, input.filePath, input);
    const before = staged.file.text;
    try {
      staged.file.text = applyOperation({ ...staged.file.base, text: before }, input);
      if (stagedChars(tx) > MAX_STAGED_CHARS) {
        throw new ToolError("limit_reached", `Transaction ${tx.id} would hold more than ${MAX_STAGED_CHARS} characters of staged text`, {
          suggestion: "Commit what is staged, then stage the rest in a new transaction.",
        });
      }
    } catch (err) {
      // A refused stage leaves the transaction as it was.
      staged.file.text = before;
      if (staged.added) tx.files.delete(staged.file.base.path);
      throw err;
    }
    const { base, text } = staged.file;
    const report = await editReport(
      [{ label: base.label, before: staged.file.create ? undefined : base.text, after: text, data: encodeDocument(base, text) }],
      { written: false },
    );
    return `Staged in ${tx.id} (${tx.files.size} file${tx.files.size === 1 ? "" : "s"}); nothing is written until commitTransaction.\n${report}`;
  },
});

async function stagedFile(
  ctx: ToolContext,
  tx: Transaction,
  filePath: string,
  input: EditOperation & ExpectedVersion,
): Promise<{ file: StagedFile; added: boolean }> {
  const path = await ctx.fs.resolve(filePath, { mustExist: false, forWrite: true });
  const known = tx.files.get(path);
  if (known !== undefined) {
    // The version a caller names is the one on disk, which the staged file was read from.
    if (input.expectedHash !== undefined && !known.create && !hashMatches(input.expectedHash, known.base.hash)) {
      throw new ToolError("file_changed", `${filePath} was staged at hash ${known.base.hash}, not ${input.expectedHash}`, {
        suggestion: "Stage against the version the transaction holds, or roll it back and start again.",
      });
    }
    return { file: known, added: false };
  }
  if (tx.files.size >= MAX_FILES_PER_TRANSACTION) {
    throw new ToolError("limit_reached", `Transaction ${tx.id} already stages ${MAX_FILES_PER_TRANSACTION} files`, {
      suggestion: "Commit it, then stage the other files in a new transaction.",
    });
  }
  const exists = (await ctx.fs.entryStat(filePath)) !== undefined;
  if (!exists && input.content === undefined) {
    throw new ToolError("file_not_found", `${filePath} does not exist`, {
      suggestion: "Check the path; to create the file in this transaction, stage it with `content`.",
    });
  }
  const file: StagedFile = exists
    ? { base: await readDocument(ctx, filePath, input), create: false, text: "" }
    : { base: newDocument(path, displayName(ctx.fs.relative(path))), create: true, text: "" };
  file.text = file.base.text;
  tx.files.set(path, file);
  return { file, added: true };
}
