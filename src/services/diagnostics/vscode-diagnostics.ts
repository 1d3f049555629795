// Diagnostics as VS Code has them (every installed extension's problems: its TypeScript, ESLint,
// Pylance...), in the bridge's diagnostic shape: 1-based, files relative to the root. VS Code only
// checks documents it has open (and what linters scan themselves), so a file is opened first; a
// whole-workspace answer says which files it could not speak for.
import type { ToolContext } from "../../capabilities/context.ts";
import type { FileDiagnostics } from "../../extension/protocol.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import type { Diagnostic } from "./diagnostic.ts";
import type { DiagnosticsReport } from "./diagnostics-backend.ts";

export async function vscodeDiagnostics(ctx: ToolContext, opts: { uri?: string }): Promise<DiagnosticsReport> {
  const answer = await ctx.extension.request("extension/getDiagnostics", opts.uri === undefined ? {} : { uri: opts.uri, open: true }, {
    signal: ctx.signal,
  });
  const diagnostics = answer.files.flatMap((file) => fileDiagnostics(ctx.fs.root, file));
  const sources = [...new Set(diagnostics.map((d) => d.source))];
  const report: DiagnosticsReport = {
    diagnostics,
    sources: [`VS Code${sources.length > 0 ? ` (${sources.join(", ")})` : ""}`],
    skipped: [],
  };
  if (opts.uri === undefined)
    report.skipped.push({
      source: "VS Code",
      reason: "VS Code checks the files it has open (and what its linters scan); files not open were not checked: name one with file",
    });
  else if (answer.settled === false)
    report.skipped.push({ source: "VS Code", reason: "VS Code was still checking the file; call again for its final diagnostics" });
  return report;
}

function fileDiagnostics(root: string, file: FileDiagnostics): Diagnostic[] {
  const path = fromFileUri(file.uri) ?? file.uri;
  const shown = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  return file.diagnostics.map((d) => {
    const out: Diagnostic = {
      file: shown,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      endLine: d.range.end.line + 1,
      endColumn: d.range.end.character + 1,
      severity: d.severity,
      message: d.message,
      source: d.source ?? "VS Code",
    };
    if (d.code !== undefined) out.code = String(d.code);
    return out;
  });
}
