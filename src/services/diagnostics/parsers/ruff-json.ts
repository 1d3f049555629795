// ruff check --output-format=json: [{code, message, filename, location: {row, column}, end_location}].
// Ruff has no severities; syntax errors (no code) are errors, rule violations warnings.
import { isRecord } from "../project-facts.ts";
import type { Diagnostic } from "../diagnostic.ts";
import { num, parseArray } from "./eslint-json.ts";
import { relativeTo } from "./paths.ts";

export async function parseRuffJson(stdout: string, root: string): Promise<Diagnostic[]> {
  return (await parseArray(stdout)).filter(isRecord).map((m) => {
    const at = isRecord(m.location) ? m.location : {};
    const end = isRecord(m.end_location) ? m.end_location : {};
    const d: Diagnostic = {
      file: relativeTo(root, String(m.filename ?? "")),
      line: num(at.row) ?? 1,
      column: num(at.column) ?? 1,
      severity: typeof m.code === "string" ? "warning" : "error",
      message: String(m.message ?? ""),
      source: "ruff",
    };
    if (typeof m.code === "string") d.code = m.code;
    if (num(end.row) !== undefined) d.endLine = num(end.row);
    if (num(end.column) !== undefined) d.endColumn = num(end.column);
    return d;
  });
}
