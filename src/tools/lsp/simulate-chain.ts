// simulateChain: a sequence of edits checked step by step, each on top of the ones before it, as
// a plan of several changes would be made: after every step the errors the steps so far introduce
// and fix against the files on disk, and what this step changed. Nothing is written. With a
// transaction, the chain starts from what it stages, and only errors beyond the transaction's own
// count: a refactor half staged may well not compile yet.
import * as v from "valibot";
import type { ErrorAt } from "../../lsp/apply-edit.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";
import { EditedFiles, ProposedEdits } from "../../services/lsp-speculative/proposed-edits.ts";
import { simulate, usersOf } from "../../services/lsp-speculative/speculative-check.ts";
import { defineTool } from "../platform/define-tool.ts";
import { errorDelta, stagedBaseline, TransactionField } from "./simulate-staged.ts";

const MAX_STEPS = 10;
const MAX_LISTED = 10;

export default defineTool({
  name: "simulateChain",
  title: "Simulate a chain of edits",
  description:
    "Checks a sequence of edits step by step (each on top of the previous, and of a transaction's staged edits if given) and shows the errors after each step, via the language server; writes nothing.",
  searchHint: "simulate chain of edits sequence of changes step by step plan check errors after each step multi-step refactor",
  input: v.strictObject({
    steps: v.pipe(
      v.array(v.strictObject({ title: v.optional(v.string()), edits: ProposedEdits })),
      v.minLength(1),
      v.maxLength(MAX_STEPS),
      v.description(`1-${MAX_STEPS} steps, each a list of edits.`),
    ),
    transactionId: TransactionField,
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 300_000,
  async handler(input, ctx) {
    const files = new EditedFiles(ctx);
    const baseline =
      input.transactionId === undefined ? undefined : await stagedBaseline(ctx, files, { transactionId: input.transactionId });
    // The errors the chain so far adds, to the files on disk or to what the transaction stages.
    const beyondBaseline = (introduced: ErrorAt[]) => (baseline === undefined ? introduced : errorDelta(baseline.errors, introduced).added);
    const out: string[] = [];
    let previous: ErrorAt[] = [];
    let server = "";
    for (const [i, step] of input.steps.entries()) {
      await files.apply(step.edits);
      const users = await usersOf(ctx, files.paths());
      const check = await simulate(ctx, files, { users });
      server = check.server.serverName;
      const { fixed, late } = check.outcome;
      const introduced = beyondBaseline(check.outcome.introduced);
      const mended = baseline === undefined ? fixed : errorDelta(baseline.errors, check.outcome.introduced).gone;
      const { added, gone } = errorDelta(previous, introduced);
      previous = introduced;
      out.push(
        `Step ${i + 1}${step.title ? ` (${step.title})` : ""}: ${introduced.length} error${introduced.length === 1 ? "" : "s"} introduced, ${mended.length} fixed so far (this step: +${added.length} -${gone.length}; ${check.outcome.checkedFiles} files checked${late.length > 0 ? `; no answer in time for ${late.join(", ")}` : ""}${check.unchecked.length > 0 ? `; not checked: ${check.unchecked.join(", ")}` : ""})`,
        ...added.slice(0, MAX_LISTED).map((e) => `  + ${diagnosticLine(e.file, e.diagnostic)}`),
        ...gone.slice(0, MAX_LISTED).map((e) => `  - ${diagnosticLine(e.file, e.diagnostic)}`),
      );
    }
    const clean = previous.length === 0;
    const steps = `${input.steps.length} step${input.steps.length === 1 ? "" : "s"}`;
    const onTop =
      baseline === undefined
        ? ""
        : ` on top of ${baseline.tx.id} (${baseline.tx.files.size} staged file${baseline.tx.files.size === 1 ? "" : "s"}, introducing ${baseline.errors.length} error${baseline.errors.length === 1 ? "" : "s"} by themselves)`;
    out.unshift(
      `${steps} simulated by ${server}${onTop}, nothing written; after the last: ${clean ? "no new error" : `${previous.length} new error${previous.length === 1 ? "" : "s"}`}.`,
    );
    if (clean)
      out.push(
        baseline === undefined
          ? "safeApplyEdit with every step's edits in order writes them if the files are still the same."
          : `safeApplyEdit with every step's edits in order and transactionId stages them in ${baseline.tx.id}.`,
      );
    return out.join("\n");
  },
});
