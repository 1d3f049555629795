// rollbackTransaction: drops a transaction. Staging never wrote anything, so no file changes.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { TRANSACTIONS } from "../../services/edit-transactions/transaction-store.ts";

export default defineTool({
  name: "rollbackTransaction",
  title: "Roll back an edit transaction",
  description:
    "Rolls back a transaction: drops its staged edits; no file was written by staging, so none changes. Lists the files that were staged.",
  searchHint: "throw away a batch of staged changes: rollback, cancel, discard or abort the transaction's staged edits",
  input: v.strictObject({ transactionId: v.pipe(v.string(), v.description("Transaction id.")) }),
  output: v.object({
    transactionId: v.string(),
    discarded: v.pipe(v.array(v.string()), v.description("Files whose staged edits were dropped.")),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(input, ctx) {
    const store = ctx.state(TRANSACTIONS);
    const tx = store.get(ctx.session, input.transactionId);
    store.end(tx.id);
    return { transactionId: tx.id, discarded: [...tx.files.values()].map((f) => f.base.label) };
  },
});
