// What an editing LSP tool answers (plain text: it is a diff): one line saying what was done or why
// nothing was written, the errors the edit introduces and fixes (counted on the files as written,
// or predicted for a dry run) and what could not be checked, then each file's summary and unified
// diff (src/tools/edit), and for what was not written the preview's digest.
import type { EditedFile, EditOutcome, ErrorAt } from "../../lsp/apply-edit.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";

const MAX_ERRORS_LISTED = 20;

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
    const checked = `${outcome.checkedFiles} file${outcome.checkedFiles === 1 ? "" : "s"} checked by ${words.server}`;
    const how = outcome.verified ? "on the files as written, after the server caught up" : "predicted on the unsaved new content";
    const gaps = [
      ...(outcome.late.length > 0
        ? [
            `no answer in time for ${outcome.late.slice(0, 5).join(", ")}${outcome.late.length > 5 ? ` and ${outcome.late.length - 5} more` : ""}: their errors are unknown`,
          ]
        : []),
      ...(outcome.notChecked > 0 ? [`${outcome.notChecked} more file(s) that use it were not checked`] : []),
      ...(outcome.checks ?? []).map((c) =>
        c.failed === undefined
          ? `and by ${c.checker} over ${c.scope}: ${c.introduced} new`
          : `${c.checker} could not check ${c.scope} (${c.failed}), so errors only it finds are unknown`,
      ),
    ];
    // No file answered and no checker ran: a count of 0 would be a claim nothing verified.
    const answered = outcome.checkedFiles - new Set(outcome.late).size > 0 || (outcome.checks ?? []).some((c) => c.failed === undefined);
    const counts =
      answered || outcome.introduced.length + outcome.fixed.length > 0
        ? `${outcome.introduced.length} introduced, ${outcome.fixed.length} fixed`
        : "unknown";
    lines.push(`Errors: ${counts} (${checked}, ${how}${gaps.length > 0 ? `; ${gaps.join("; ")}` : ""}).`);
    lines.push(...listed("introduced", outcome.introduced), ...listed("fixed", outcome.fixed));
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

function listed(what: string, errors: readonly ErrorAt[]): string[] {
  if (errors.length === 0) return [];
  const shown = errors
    .slice(0, MAX_ERRORS_LISTED)
    .map((e) => `  ${what === "introduced" ? "+" : "-"} ${diagnosticLine(e.file, e.diagnostic)}`);
  return [`${what}:`, ...shown, ...(errors.length > shown.length ? [`  … ${errors.length - shown.length} more`] : [])];
}
