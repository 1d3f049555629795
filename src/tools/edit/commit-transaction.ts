// commitTransaction: writes every staged file at once, or none (src/workspace/commit-files.ts):
// each must still be the version read when it was staged. The transaction ends either way. The
// written files are verified after the fact (commit-errors.ts): the servers' diagnostics and the
// language's own checker, before and after, in one Errors line.
import * as v from "valibot";
import type { FileWrite } from "../../workspace/workspace-fs.ts";
import { defineTool } from "../platform/define-tool.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { documentWrite, encodeDocument } from "../../services/documents/text-document.ts";
import { TRANSACTIONS } from "../../services/edit-transactions/transaction-store.ts";
import { checkedCommit } from "./commit-errors.ts";

export default defineTool({
  name: "commitTransaction",
  title: "Commit an edit transaction",
  description:
    "Commits a transaction: writes all staged files at once, or none if any fails (a file changed since staging, a permission). Ends the transaction; returns the diffs.",
  searchHint: "commit transaction apply staged edits atomic write all files",
  input: v.strictObject({ transactionId: v.pipe(v.string(), v.description("Transaction id.")) }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  // The language's checker runs before and after the write (pyright's CLI, go vet, tsgo per project),
  // as for renameSymbol: on a loaded machine two runs pass the default 30 s, and a commit cut off
  // after its write would answer a timeout for files it wrote.
  timeoutMs: 180_000,
  // The files that import the written ones are found by a text search, for the language's checker.
  requires: { optionalProbes: ["rg"] },
  async handler(input, ctx) {
    const store = ctx.state(TRANSACTIONS);
    const tx = store.get(ctx.session, input.transactionId);
    store.end(tx.id);
    const staged = [...tx.files.values()].filter((f) => f.create || f.text !== f.base.text);
    const writes: FileWrite[] = staged.map((f) =>
      f.create
        ? { label: f.base.label, path: f.base.path, data: encodeDocument(f.base, f.text), expect: "absent" }
        : documentWrite(f.base, f.text),
    );
    const { notes, errors } = await checkedCommit(ctx, { paths: writes.map((w) => w.path), write: () => ctx.fs.commit(writes) });
    if (writes.length === 0) return `Committed ${tx.id}: nothing was staged that changes a file; nothing was written.`;
    const report = await editReport(
      staged.map((f, i) => ({
        label: f.base.label,
        before: f.create ? undefined : f.base.text,
        after: f.text,
        data: writes[i]?.data ?? new Uint8Array(),
        notes: notes.get(f.base.path) ?? [],
      })),
      { written: true },
    );
    return [`Committed ${tx.id}: ${writes.length} file${writes.length === 1 ? "" : "s"} written together.`, ...errors, report].join("\n");
  },
});
