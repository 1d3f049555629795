// eslint -f json: one entry per file with its messages (severity 1 warning, 2 error).
import { isRecord } from "../project-facts.ts";
import type { Diagnostic } from "../diagnostic.ts";
import { relativeTo } from "./paths.ts";
import { JsonTextError, parseJsonCooperatively } from "../../../lib/text/cooperative-json.ts";

export async function parseEslintJson(stdout: string, root: string): Promise<Diagnostic[]> {
  const report = await parseArray(stdout);
  const out: Diagnostic[] = [];
  for (const file of report) {
    if (!isRecord(file) || !Array.isArray(file.messages)) continue;
    for (const m of file.messages.filter(isRecord)) {
      // "File ignored because no matching configuration was supplied": a note about the file, with
      // no rule and no place in it, not a finding (a fatal parse error has both a line and fatal).
      if (m.ruleId === null && m.fatal !== true && m.line === undefined) continue;
      const d: Diagnostic = {
        file: relativeTo(root, String(file.filePath)),
        line: num(m.line) ?? 1,
        column: num(m.column) ?? 1,
        severity: m.severity === 2 || m.fatal === true ? "error" : "warning",
        message: String(m.message ?? ""),
        source: "eslint",
      };
      if (typeof m.ruleId === "string") d.code = m.ruleId;
      if (num(m.endLine) !== undefined) d.endLine = num(m.endLine);
      if (num(m.endColumn) !== undefined) d.endColumn = num(m.endColumn);
      out.push(d);
    }
  }
  return out;
}

/** The JSON array a checker printed from its first "[" on (a big project's report is megabytes: read in turns). */
export async function parseArray(text: string): Promise<unknown[]> {
  const start = text.indexOf("[");
  if (start === -1) return [];
  try {
    const value = await parseJsonCooperatively(text.slice(start));
    return Array.isArray(value) ? value : [];
  } catch (err) {
    if (err instanceof JsonTextError) return [];
    throw err;
  }
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
