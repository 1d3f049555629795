// cargo check --message-format=json: one JSON object per line; compiler messages carry rustc's
// diagnostic with spans, the primary span being where it points.
import { isRecord } from "../project-facts.ts";
import type { Diagnostic, Severity } from "../diagnostic.ts";
import { num } from "./eslint-json.ts";
import { jsonLines } from "./json-lines.ts";
import { relativeTo } from "./paths.ts";

const SEVERITY: Readonly<Record<string, Severity>> = {
  error: "error",
  "error: internal compiler error": "error",
  warning: "warning",
  note: "info",
  help: "hint",
};

export async function parseCargoJson(stdout: string, root: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const event of await jsonLines(stdout)) {
    if (event.reason !== "compiler-message" || !isRecord(event.message)) continue;
    const m = event.message;
    const spans = Array.isArray(m.spans) ? m.spans.filter(isRecord) : [];
    const span = spans.find((s) => s.is_primary === true) ?? spans[0];
    if (span === undefined) continue;
    const d: Diagnostic = {
      file: relativeTo(root, String(span.file_name ?? "")),
      line: num(span.line_start) ?? 1,
      column: num(span.column_start) ?? 1,
      severity: SEVERITY[String(m.level)] ?? "info",
      message: String(m.message ?? ""),
      source: "cargo",
    };
    if (isRecord(m.code) && typeof m.code.code === "string") d.code = m.code.code;
    if (num(span.line_end) !== undefined) d.endLine = num(span.line_end);
    if (num(span.column_end) !== undefined) d.endColumn = num(span.column_end);
    out.push(d);
  }
  return out;
}
