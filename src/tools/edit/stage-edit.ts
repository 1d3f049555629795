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
import { checkRoom, DEFAULT_STAGED_LIMITS, stagedFileBytes, type StagedLimits } from "./staged-bytes.ts";
import { MAX_FILES_PER_TRANSACTION, TRANSACTIONS, type StagedFile, type Transaction } from "./transaction-store.ts";

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
    const store = ctx.state(TRANSACTIONS);
    const tx = store.get(ctx.session, input.transactionId);
    const limits = ctx.settings.stagedBytes ?? DEFAULT_STAGED_LIMITS;
    const staged = await stagedFile(ctx, tx, input, limits);
    const before = { text: staged.file.text, bytes: staged.file.bytes };
    try {
      const text = applyOperation({ ...staged.file.base, text: before.text }, input);
      const bytes = stagedFileBytes({ base: staged.file.base, text });
      // Counted before it is kept; other calls may have staged meanwhile (the file was read), so asked now.
      checkRoom(store.held(ctx.session), bytes - before.bytes, limits);
      staged.file.text = text;
      staged.file.bytes = bytes;
    } catch (err) {
      // A refused stage leaves the transaction as it was.
      staged.file.text = before.text;
      staged.file.bytes = before.bytes;
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
  input: EditOperation & ExpectedVersion & { filePath: string },
  limits: StagedLimits,
): Promise<{ file: StagedFile; added: boolean }> {
  const { filePath } = input;
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
  const entry = await ctx.fs.entryStat(filePath);
  if (entry === undefined && input.content === undefined) {
    throw new ToolError("file_not_found", `${filePath} does not exist`, {
      suggestion: "Check the path; to create the file in this transaction, stage it with `content`.",
    });
  }
  // Refused before the file is read: holding it takes at least its bytes and their text.
  if (entry !== undefined) checkRoom(ctx.state(TRANSACTIONS).held(ctx.session), 2 * entry.size, limits);
  const base = entry !== undefined ? await readDocument(ctx, filePath, input) : newDocument(path, displayName(ctx.fs.relative(path)));
  const file: StagedFile = { base, create: entry === undefined, text: base.text, bytes: 0 };
  file.bytes = stagedFileBytes(file);
  tx.files.set(path, file);
  return { file, added: true };
}
