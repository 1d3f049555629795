// Speculative edits on top of an edit transaction: the transaction's staged files are the state the
// edits apply to, and what they introduce is told apart from what the transaction already
// introduces (its baseline, checked the same way first), since a transaction in the middle of a
// refactor may well not compile yet. safeApplyEdit then stages the edit in the transaction instead
// of writing it; the transaction's commit writes it with the rest.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import type { ErrorAt } from "../../lsp/apply-edit.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";
import { restage, stagedFile } from "../../services/edit-transactions/staging.ts";
import { TRANSACTIONS, type StagedFile, type Transaction } from "../../services/edit-transactions/transaction-store.ts";
import type { EditedFiles } from "../../services/lsp-speculative/proposed-edits.ts";
import { simulate, usersOf } from "../../services/lsp-speculative/speculative-check.ts";

const MAX_LISTED = 10;

export const TransactionField = v.optional(
  v.pipe(
    v.string(),
    v.description(
      "An open edit transaction (beginTransaction): the edits apply on top of what it stages, and only their own new errors count.",
    ),
  ),
);

export interface StagedBaseline {
  tx: Transaction;
  /** The errors the transaction's staged files introduce by themselves. */
  errors: ErrorAt[];
}

/** Starts `files` from the transaction's staged state and checks that state alone. */
export async function stagedBaseline(ctx: ToolContext, files: EditedFiles, opts: { transactionId: string }): Promise<StagedBaseline> {
  const tx = ctx.state(TRANSACTIONS).get(ctx.session, opts.transactionId);
  await files.startFrom(tx);
  if (files.paths().length === 0) return { tx, errors: [] };
  const check = await simulate(ctx, files, { users: await usersOf(ctx, files.paths()) });
  return { tx, errors: check.outcome.introduced };
}

export function sameError(a: ErrorAt, b: ErrorAt): boolean {
  return (
    a.file === b.file && a.diagnostic.message === b.diagnostic.message && a.diagnostic.range.start.line === b.diagnostic.range.start.line
  );
}

/** What `now` adds to and takes from `before`: the errors one step introduces and mends. */
export function errorDelta(before: readonly ErrorAt[], now: readonly ErrorAt[]): { added: ErrorAt[]; gone: ErrorAt[] } {
  return {
    added: now.filter((e) => !before.some((p) => sameError(p, e))),
    gone: before.filter((p) => !now.some((e) => sameError(p, e))),
  };
}

/** "On top of tx-…" line and the errors this edit adds and mends, for the answer. */
export function stagedDeltaLines(baseline: StagedBaseline, introduced: readonly ErrorAt[]): { lines: string[]; added: ErrorAt[] } {
  const { added, gone } = errorDelta(baseline.errors, introduced);
  const staged = baseline.tx.files.size;
  return {
    added,
    lines: [
      `On top of ${baseline.tx.id} (${staged} staged file${staged === 1 ? "" : "s"}, introducing ${baseline.errors.length} error${baseline.errors.length === 1 ? "" : "s"} by themselves): this edit adds ${added.length}, mends ${gone.length}.`,
      ...added.slice(0, MAX_LISTED).map((e) => `  + ${diagnosticLine(e.file, e.diagnostic)}`),
      ...gone.slice(0, MAX_LISTED).map((e) => `  - ${diagnosticLine(e.file, e.diagnostic)}`),
    ],
  };
}

/** Stages every changed file's new text in the transaction, all or none (a refusal puts back what was staged). */
export async function stageAll(
  ctx: ToolContext,
  tx: Transaction,
  opts: { changed: readonly { relative: string; start: string; text: string }[] },
): Promise<void> {
  const done: { file: StagedFile; added: boolean; text: string; bytes: number }[] = [];
  try {
    for (const change of opts.changed) {
      const staged = await stagedFile(ctx, tx, { filePath: change.relative, creating: false });
      const before = { text: staged.file.text, bytes: staged.file.bytes };
      if (staged.file.text !== change.start) {
        if (staged.added) tx.files.delete(staged.file.base.path);
        throw new ToolError("file_changed", `${change.relative} changed while the edit was checked; nothing was staged`, {
          suggestion: "Check the edit again (safeApplyEdit) on the file as it is now.",
        });
      }
      restage(ctx, tx, { staged, text: change.text });
      done.push({ ...staged, ...before });
    }
  } catch (err) {
    for (const d of done.reverse()) {
      d.file.text = d.text;
      d.file.bytes = d.bytes;
      if (d.added) tx.files.delete(d.file.base.path);
    }
    throw err;
  }
}
