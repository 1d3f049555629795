// The Errors line of an edit's answer (the LSP edit tools, a transaction's commit): the errors it
// introduces and fixes, by whom they were counted, and what was not checked. A count is printed only
// where something checked: when no file the server was asked about answered and no checker ran, it
// says unknown, and each gap is named ("no answer in time for ...", "N more file(s) ... not checked").
import type { CheckerNote, ErrorAt } from "../../lsp/apply-edit.ts";
import { diagnosticLine } from "./diagnostic-lines.ts";

const MAX_ERRORS_LISTED = 20;
const RAISE_TIMEOUT = "raise --timeout for projects this large";

export interface ErrorTally {
  introduced: readonly ErrorAt[];
  fixed: readonly ErrorAt[];
  /** Files the server was asked about; those that said nothing in time; those past its bound. */
  checkedFiles: number;
  late: readonly string[];
  notChecked: number;
  /** Root-relative names of the files not checked, when known: the answer names them. */
  notCheckedFiles?: readonly string[];
  /** Counted on the files as written (after the server caught up), or predicted on unsaved content. */
  verified: boolean;
  /** The call's time limit came before the server answered for some of the late files. */
  cut?: boolean;
  checks?: readonly CheckerNote[];
  /** Files whose predicted errors are unknown (left out of the counts), and why. */
  blind?: { files: readonly string[]; why: string };
}

/** "Errors: 1 introduced, 0 fixed (...)." */
export function errorsLine(tally: ErrorTally, server: string): string {
  const checks = tally.checks ?? [];
  const how = tally.verified ? "on the files as written, after the server caught up" : "predicted on the unsaved new content";
  // The server was not asked only where a checker counted instead (a written edit, preferChecker).
  const asked = tally.checkedFiles > 0 || !tally.verified || !checks.some((c) => c.failed === undefined);
  const gaps = [
    ...(tally.late.length > 0
      ? [
          `no answer in time for ${tally.late.slice(0, 5).join(", ")}${tally.late.length > 5 ? ` and ${tally.late.length - 5} more` : ""}: their errors are unknown${tally.cut === true ? ` (the call's time limit came first: ${RAISE_TIMEOUT})` : ""}`,
        ]
      : []),
    ...(tally.blind !== undefined ? [`not predicted for ${namedList(tally.blind.files)}: ${tally.blind.why}`] : []),
    ...(tally.notChecked > 0
      ? [`${tally.notChecked} more file(s) that use it were not checked${namedFiles(tally.notCheckedFiles ?? [])}`]
      : []),
    ...checks.map((c, i) =>
      c.failed === undefined
        ? `${asked || i > 0 ? "and " : ""}by ${c.checker} over ${c.scope}: ${c.introduced} introduced${c.coveredUnchecked === undefined ? "" : `, covering the ${c.coveredUnchecked} file(s) the server did not check`}`
        : `${c.checker} could not check ${c.scope} (${c.failed}), so errors only it finds are unknown`,
    ),
  ];
  const head = asked
    ? `${tally.checkedFiles} file${tally.checkedFiles === 1 ? "" : "s"} checked by ${server}, ${how}`
    : `on the files as written, counted by the language's checker; ${server} not asked`;
  // No file answered and no checker ran: a count of 0 would be a claim nothing verified.
  const unknown = new Set([...tally.late, ...(tally.blind?.files ?? [])]);
  const answered = tally.checkedFiles - unknown.size > 0 || checks.some((c) => c.failed === undefined);
  const counts =
    answered || tally.introduced.length + tally.fixed.length > 0
      ? `${tally.introduced.length} introduced, ${tally.fixed.length} fixed`
      : "unknown";
  return `Errors: ${counts} (${head}${gaps.length > 0 ? `; ${gaps.join("; ")}` : ""}).`;
}

/** "a.c, b.c and 3 more": at most five named. */
function namedList(files: readonly string[]): string {
  return `${files.slice(0, 5).join(", ")}${files.length > 5 ? ` and ${files.length - 5} more` : ""}`;
}

/** " (a.ts, b.ts and 3 more)": the files named, at most five; nothing when none are known. */
function namedFiles(files: readonly string[]): string {
  if (files.length === 0) return "";
  return ` (${namedList(files)})`;
}

/** "introduced:" and its errors, one per line, at most MAX_ERRORS_LISTED. */
export function listedErrors(what: "introduced" | "fixed", errors: readonly ErrorAt[]): string[] {
  if (errors.length === 0) return [];
  const shown = errors
    .slice(0, MAX_ERRORS_LISTED)
    .map((e) => `  ${what === "introduced" ? "+" : "-"} ${diagnosticLine(e.file, e.diagnostic)}`);
  return [`${what}:`, ...shown, ...(errors.length > shown.length ? [`  … ${errors.length - shown.length} more`] : [])];
}
