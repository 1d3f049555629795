// beginTransaction: opens a transaction for edits across files that must land together.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { MAX_FILES_PER_TRANSACTION, TRANSACTION_IDLE_MS, TRANSACTIONS } from "../../services/edit-transactions/transaction-store.ts";

export default defineTool({
  name: "beginTransaction",
  title: "Begin an edit transaction",
  description:
    "Begins a multi-file edit transaction: stage edits with stageEdit, then commitTransaction writes them all at once (or none), or rollbackTransaction drops them.",
  searchHint: "change several files atomically: begin a multi-file transaction, batch edits, refactor",
  input: v.strictObject({}),
  output: v.object({
    transactionId: v.string(),
    idleMinutes: v.pipe(v.number(), v.description("The transaction is dropped after this long without a call using it.")),
    maxFiles: v.number(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(_input, ctx) {
    const tx = ctx.state(TRANSACTIONS).begin(ctx.session);
    return { transactionId: tx.id, idleMinutes: TRANSACTION_IDLE_MS / 60_000, maxFiles: MAX_FILES_PER_TRANSACTION };
  },
});
