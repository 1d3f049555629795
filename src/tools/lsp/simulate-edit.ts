// simulateEdit: what an edit would do to the build before it is made. The new content is shown to
// the language server as unsaved changes (never written), the errors it would introduce and fix are
// compared over the edited files and the files that import them, and the server is given the files'
// real content back. With a transaction, the edit is checked on top of what it stages.
import * as v from "valibot";
import { EditedFiles, ProposedEdits } from "../../services/lsp-speculative/proposed-edits.ts";
import { simulate, usersOf } from "../../services/lsp-speculative/speculative-check.ts";
import { defineTool } from "../platform/define-tool.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { stagedBaseline, stagedDeltaLines, TransactionField } from "./simulate-staged.ts";

export default defineTool({
  name: "simulateEdit",
  title: "Simulate an edit",
  description:
    "Shows the errors an edit would introduce or fix across the project (callers in other files included), checked by the language server without writing anything.",
  searchHint: "simulate edit what if dry run would this change break the build type check before writing speculative",
  input: v.strictObject({ edits: ProposedEdits, transactionId: TransactionField }),
  annotations: { readOnlyHint: true },
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const files = new EditedFiles(ctx);
    const baseline =
      input.transactionId === undefined ? undefined : await stagedBaseline(ctx, files, { transactionId: input.transactionId });
    await files.apply(input.edits);
    const users = await usersOf(ctx, files.paths());
    const { server, outcome, unchecked } = await simulate(ctx, files, { users });
    const would = baseline === undefined ? "Would apply the edit" : `Would apply what ${baseline.tx.id} stages and the edit`;
    const text = await renderOutcome(outcome, { done: "Applied the edit", would, server: server.serverName });
    const note = unchecked.length > 0 ? `\nNot checked (${server.serverName} does not handle them): ${unchecked.join(", ")}` : "";
    const staged = baseline === undefined ? "" : `\n${stagedDeltaLines(baseline, outcome.introduced).lines.join("\n")}`;
    return `${text.replace(/\nPreview [0-9a-f]{8}: pass preview: "[0-9a-f]{8}" to write exactly this edit \(nothing is written if it has changed\)\./, "")}${staged}${note}`;
  },
});
