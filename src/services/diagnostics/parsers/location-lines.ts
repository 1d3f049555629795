// Checkers that print "path:line:col: message" lines (go vet, and the fallback of others), and
// biome's GitHub reporter ("::error title=rule,file=f,line=1,col=2,endLine=..,endColumn=..::msg").
import type { Diagnostic, Severity } from "../diagnostic.ts";
import { relativeTo } from "./paths.ts";

export function parseLocationLines(text: string, root: string, opts: { source: string }): Diagnostic[] {
  const { source } = opts;
  const out: Diagnostic[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^(?:vet: )?([^\s:#][^:]*):(\d+):(\d+): (.*)$/.exec(line);
    if (m !== null)
      out.push({
        file: relativeTo(root, m[1] ?? ""),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: "warning",
        message: m[4] ?? "",
        source,
      });
  }
  return out;
}

const GITHUB_SEVERITY: Readonly<Record<string, Severity>> = { error: "error", warning: "warning", notice: "info" };

export function parseGithubAnnotations(text: string, root: string, opts: { source: string }): Diagnostic[] {
  const { source } = opts;
  const out: Diagnostic[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^::(error|warning|notice) ([^:]*)::(.*)$/.exec(line);
    if (m === null) continue;
    const fields = Object.fromEntries((m[2] ?? "").split(",").map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
    const n = (key: string) => (fields[key] !== undefined && /^\d+$/.test(fields[key]) ? Number(fields[key]) : undefined);
    const d: Diagnostic = {
      file: relativeTo(root, fields.file ?? ""),
      line: n("line") ?? 1,
      column: n("col") ?? 1,
      severity: GITHUB_SEVERITY[m[1] ?? ""] ?? "info",
      message: unescapeAnnotation(m[3] ?? ""),
      source,
    };
    if (fields.title !== undefined) d.code = fields.title;
    if (n("endLine") !== undefined) d.endLine = n("endLine");
    if (n("endColumn") !== undefined) d.endColumn = n("endColumn");
    out.push(d);
  }
  return out;
}

/** GitHub workflow commands escape %, CR and LF. */
function unescapeAnnotation(text: string): string {
  return text.replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%25/g, "%");
}
