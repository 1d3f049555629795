// Diagnostics for the model: `file:line:col severity code: message`, 1-based, one per line.
import type { Diagnostic } from "vscode-languageserver-protocol";

const SEVERITY = ["error", "warning", "info", "hint"];

export function severityName(d: Diagnostic): string {
  return SEVERITY[(d.severity ?? 1) - 1] ?? "error";
}

export function diagnosticLine(file: string, d: Diagnostic): string {
  // As VS Code's Problems view writes it: "ts(2322)", "Pyright(reportAssignmentType)".
  const code = d.code === undefined ? (d.source ? ` ${d.source}` : "") : d.source ? ` ${d.source}(${d.code})` : ` ${d.code}`;
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severityName(d)}${code}: ${(typeof d.message === "string" ? d.message : d.message.value).split("\n").join(" ")}`;
}

export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.severity ?? 1) - (b.severity ?? 1) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
  );
}
