// What an editing LSP tool answers (plain text: it is a diff): one line saying what was done or why
// nothing was written, the errors the edit introduces and fixes (counted on the files as written,
// or predicted for a dry run) and what could not be checked, then each file's summary and unified
// diff (src/tools/edit), and for what was not written the preview's digest.
import type { EditedFile, EditOutcome } from "../../lsp/apply-edit.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { errorsLine, listedErrors } from "../../services/diagnostics/errors-line.ts";

/** `done`: "Renamed `a` to `b`"; `would`: "Would rename `a` to `b`". */
export async function renderOutcome(outcome: EditOutcome, words: { done: string; would: string; server: string }): Promise<string> {
  const files = outcome.files.length;
  const count = `${files} file${files === 1 ? "" : "s"}`;
  const head = outcome.written
    ? `${words.done}: ${count} written together.`
    : outcome.heldBack === "dry run"
      ? `${words.would}: ${count} (dry run; nothing written).`
      : `NOT APPLIED: ${words.would.charAt(0).toLowerCase()}${words.would.slice(1)}, but ${outcome.heldBack ?? "it was held back"}; nothing was written.`;
  const lines = [head];
  if (files > 0) {
    lines.push(errorsLine(outcome, words.server));
    lines.push(...listedErrors("introduced", outcome.introduced), ...listedErrors("fixed", outcome.fixed));
    lines.push(...outcome.files.flatMap((f) => moves(f, outcome.written)));
    if (!outcome.written)
      lines.push(
        `Preview ${outcome.digest}: pass preview: "${outcome.digest}" to write exactly this edit (nothing is written if it has changed).`,
      );
    // A moved file's diff is of its content only (none when it moved unchanged); a deleted one is named, not printed.
    const contents = outcome.files.filter((f) => f.after !== undefined && !(f.movedFrom !== undefined && f.before === f.after));
    if (contents.length > 0)
      lines.push(
        await editReport(
          contents.map((f) => ({ label: f.relative, before: f.before, after: f.after, ...(f.data === undefined ? {} : { data: f.data }) })),
          { written: outcome.written },
        ),
      );
  }
  return lines.join("\n");
}

/** "Renamed a -> b" / "Deleted c (12 lines)", or "Would ..." when nothing was written. */
function moves(f: EditedFile, written: boolean): string[] {
  const verb = (done: string) => (written ? done : `Would ${done.toLowerCase().replace(/d$/, "")}`);
  if (f.movedFrom !== undefined)
    return [
      `${verb("Renamed")} ${f.movedFrom.relative} -> ${f.relative}${f.movedFrom.replaced ? ` (replacing the ${f.relative} there)` : ""}`,
    ];
  if (f.after === undefined) return [`${verb("Deleted")} ${f.relative} (${lineCount(f.before ?? "")} lines)`];
  return [];
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
