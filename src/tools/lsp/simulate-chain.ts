// simulateChain: a sequence of edits checked step by step, each on top of the ones before it, as
// a plan of several changes would be made: after every step the errors the steps so far introduce
// and fix against the files on disk, and what this step changed. Nothing is written.
import * as v from "valibot";
import type { ErrorAt } from "../../lsp/apply-edit.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";
import { EditedFiles, ProposedEdits } from "../../services/lsp-speculative/proposed-edits.ts";
import { simulate, usersOf } from "../../services/lsp-speculative/speculative-check.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_STEPS = 10;
const MAX_LISTED = 10;

export default defineTool({
  name: "simulateChain",
  title: "Simulate a chain of edits",
  description:
    "Checks a sequence of edits step by step (each on top of the previous) and shows the errors after each step, via the language server, without writing anything.",
  searchHint: "simulate chain of edits sequence of changes step by step plan check errors after each step multi-step refactor",
  input: v.strictObject({
    steps: v.pipe(
      v.array(v.strictObject({ title: v.optional(v.string()), edits: ProposedEdits })),
      v.minLength(1),
      v.maxLength(MAX_STEPS),
      v.description(`1-${MAX_STEPS} steps, each a list of edits.`),
    ),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 300_000,
  async handler(input, ctx) {
    const files = new EditedFiles(ctx);
    const out: string[] = [];
    let previous: ErrorAt[] = [];
    let server = "";
    for (const [i, step] of input.steps.entries()) {
      await files.apply(step.edits);
      const users = await usersOf(ctx, files.paths());
      const check = await simulate(ctx, files, { users });
      server = check.server.serverName;
      const { introduced, fixed, late } = check.outcome;
      const added = introduced.filter((e) => !previous.some((p) => same(p, e)));
      const gone = previous.filter((p) => !introduced.some((e) => same(p, e)));
      previous = introduced;
      out.push(
        `Step ${i + 1}${step.title ? ` (${step.title})` : ""}: ${introduced.length} error${introduced.length === 1 ? "" : "s"} introduced, ${fixed.length} fixed so far (this step: +${added.length} -${gone.length}; ${check.outcome.checkedFiles} files checked${late.length > 0 ? `; no answer in time for ${late.join(", ")}` : ""}${check.unchecked.length > 0 ? `; not checked: ${check.unchecked.join(", ")}` : ""})`,
        ...added.slice(0, MAX_LISTED).map((e) => `  + ${diagnosticLine(e.file, e.diagnostic)}`),
        ...gone.slice(0, MAX_LISTED).map((e) => `  - ${diagnosticLine(e.file, e.diagnostic)}`),
      );
    }
    const clean = previous.length === 0;
    out.unshift(
      `${input.steps.length} step${input.steps.length === 1 ? "" : "s"} simulated by ${server}, nothing written; after the last: ${clean ? "no new error" : `${previous.length} new error${previous.length === 1 ? "" : "s"}`}.`,
    );
    if (clean) out.push("safeApplyEdit with every step's edits in order writes them if the files are still the same.");
    return out.join("\n");
  },
});

function same(a: ErrorAt, b: ErrorAt): boolean {
  return (
    a.file === b.file && a.diagnostic.message === b.diagnostic.message && a.diagnostic.range.start.line === b.diagnostic.range.start.line
  );
}
