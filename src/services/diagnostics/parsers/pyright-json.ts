// pyright --outputjson: generalDiagnostics with 0-based ranges.
import { isRecord } from "../project-facts.ts";
import type { Diagnostic, Severity } from "../diagnostic.ts";
import { num } from "./eslint-json.ts";
import { relativeTo } from "./paths.ts";
import { JsonTextError, parseJsonCooperatively } from "../../../lib/text/cooperative-json.ts";

const SEVERITY: Readonly<Record<string, Severity>> = { error: "error", warning: "warning", information: "info" };

export async function parsePyrightJson(stdout: string, root: string): Promise<Diagnostic[]> {
  let report: unknown;
  try {
    report = await parseJsonCooperatively(stdout.slice(Math.max(0, stdout.indexOf("{"))));
  } catch (err) {
    if (err instanceof JsonTextError) return [];
    throw err;
  }
  if (!isRecord(report) || !Array.isArray(report.generalDiagnostics)) return [];
  return report.generalDiagnostics.filter(isRecord).map((m) => {
    const range = isRecord(m.range) ? m.range : {};
    const start = isRecord(range.start) ? range.start : {};
    const end = isRecord(range.end) ? range.end : {};
    const d: Diagnostic = {
      file: relativeTo(root, String(m.file ?? "")),
      line: (num(start.line) ?? 0) + 1,
      column: (num(start.character) ?? 0) + 1,
      severity: SEVERITY[String(m.severity)] ?? "info",
      message: String(m.message ?? ""),
      source: "pyright",
    };
    if (typeof m.rule === "string") d.code = m.rule;
    if (num(end.line) !== undefined) d.endLine = (num(end.line) ?? 0) + 1;
    if (num(end.character) !== undefined) d.endColumn = (num(end.character) ?? 0) + 1;
    return d;
  });
}
