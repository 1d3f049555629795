// What an editing LSP tool answers (plain text: it is a diff): one line saying what was done or why
// nothing was written, the errors the edit introduces and fixes (checked by the server on the new
// content before it was written), then each file's summary and unified diff (src/tools/edit).
import type { EditOutcome, ErrorAt } from "../../lsp/apply-edit.ts";
import { editReport } from "../edit/edit-report.ts";
import { diagnosticLine } from "./diagnostic-lines.ts";

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
    const late = outcome.diagnosticsCurrent ? "" : "; a server published nothing in time for some file, so this may be incomplete";
    lines.push(`Errors: ${outcome.introduced.length} introduced, ${outcome.fixed.length} fixed (${outcome.checkedFiles} file${outcome.checkedFiles === 1 ? "" : "s"} checked by ${words.server}${late}).`);
    lines.push(...listed("introduced", outcome.introduced), ...listed("fixed", outcome.fixed));
    lines.push(await editReport(outcome.files.map((f) => ({ label: f.relative, before: f.before, after: f.after, data: f.data })), { written: outcome.written }));
  }
  return lines.join("\n");
}

function listed(what: string, errors: readonly ErrorAt[]): string[] {
  if (errors.length === 0) return [];
  const shown = errors.slice(0, MAX_ERRORS_LISTED).map((e) => `  ${what === "introduced" ? "+" : "-"} ${diagnosticLine(e.file, e.diagnostic)}`);
  return [`${what}:`, ...shown, ...(errors.length > shown.length ? [`  … ${errors.length - shown.length} more`] : [])];
}
