// One diagnostic shape for every source, a checker CLI or a language server, so getDiagnostics can
// merge their reports. Lines and columns are 1-based; files are relative to the workspace root.
import * as v from "valibot";
import { fileRank } from "../../lsp/file-rank.ts";

export const SEVERITIES = ["error", "warning", "info", "hint"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const Diagnostic = v.object({
  file: v.pipe(v.string(), v.description("Relative to the workspace root.")),
  line: v.pipe(v.number(), v.description("1-based.")),
  column: v.pipe(v.number(), v.description("1-based.")),
  endLine: v.optional(v.number()),
  endColumn: v.optional(v.number()),
  severity: v.picklist(SEVERITIES),
  code: v.optional(v.pipe(v.string(), v.description('Rule or error code, e.g. "TS2322", "no-unused-vars", "E501".'))),
  message: v.string(),
  source: v.pipe(v.string(), v.description('What reported it: "tsc", "eslint", a language server...')),
});
export type Diagnostic = v.InferOutput<typeof Diagnostic>;

/** Worst first; then the project's own code before its tests, benchmarks and examples (file-rank.ts); then by file and position. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    fileRank(a.file) - fileRank(b.file) ||
    a.file.localeCompare(b.file) ||
    a.line - b.line ||
    a.column - b.column
  );
}

export function atLeast(severity: Severity, min: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(min);
}

/**
 * A diagnostic's code as the bridge shows it: TypeScript's servers (and VS Code, as text) give the
 * bare number, its compiler and getDiagnostics' compiler checks `TS2322`; one spelling for both.
 */
export function diagnosticCode(source: string | undefined, code: string | number): string {
  return source === "ts" && /^\d+$/.test(String(code)) ? `TS${code}` : String(code);
}
