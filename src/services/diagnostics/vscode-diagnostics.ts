// Diagnostics as VS Code has them (every installed extension's problems: its TypeScript, ESLint,
// Pylance...), in the bridge's diagnostic shape: 1-based, files relative to the root. VS Code only
// checks documents it has open (and what linters scan themselves), so a file is opened first; a
// whole-workspace answer says which files it could not speak for. VS Code's TypeScript checks only
// files shown in an editor tab (typescript-language-features validates its tab resources unless
// project diagnostics are on), so a file opened in memory may never be checked there: when VS Code
// has not reported on the file in its wait, the bridge's own language server answers for it.
import type { ToolContext } from "../../capabilities/context.ts";
import type { FileDiagnostics } from "../../extension/protocol.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { type Diagnostic, diagnosticCode } from "./diagnostic.ts";
import type { DiagnosticsReport } from "./diagnostics-backend.ts";
import { shapeOf } from "./lsp-backend.ts";

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
  else if (answer.settled === false && !(await headlessFor(ctx, opts.uri, report)))
    report.skipped.push({ source: "VS Code", reason: "VS Code was still checking the file; call again for its final diagnostics" });
  return report;
}

/**
 * The bridge's own language server's diagnostics for a file VS Code did not report on, added to
 * `report`; false when no server handles the file or it did not answer for the file as it is now.
 */
async function headlessFor(ctx: ToolContext, uri: string, report: DiagnosticsReport): Promise<boolean> {
  const named = fromFileUri(uri);
  // Through the jail: the path came back from the extension.
  const path = named === undefined ? undefined : await ctx.fs.resolve(named).catch(() => undefined);
  if (path === undefined) return false;
  const file = ctx.fs.relative(path);
  if (!(await ctx.lsp.handles(file).catch(() => false))) return false;
  const found = await ctx.lsp.diagnosticsFor(file, { signal: ctx.signal }).catch(() => undefined);
  if (found === undefined || !found.current) return false;
  report.diagnostics.push(...found.items.map((d) => shapeOf({ file: found.relative, server: found.server }, d)));
  report.sources.push(found.server);
  report.skipped.push({
    source: "VS Code",
    reason: `VS Code reported nothing on ${file} in its wait (its TypeScript checks only files shown in an editor tab); ${found.server} answered for it`,
  });
  return true;
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
    if (d.code !== undefined) out.code = diagnosticCode(d.source, d.code);
    return out;
  });
}
