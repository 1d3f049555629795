// getDiagnostics' language-server backend, in front of the checker CLIs
// (src/services/diagnostics/backends.ts): a file a server handles is checked by it, for the
// file's content on disk now (pulled where the server can, else pushed for the version just
// synced). The whole workspace (or a directory) is first checked per TypeScript project by the
// compiler (project-checkers.ts: the check CI runs, its answers kept while their inputs stay) and
// its Python files by pyright's CLI (python-project-check.ts), then
// every other file an installed server handles, the project's own code first (file-rank.ts), up to
// a bound and one time budget for both, and the result says what was left out rather than being
// silently partial.
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver-protocol";
import { type Diagnostic, diagnosticCode } from "./diagnostic.ts";
import type { DiagnosticsBackend, DiagnosticsReport } from "./diagnostics-backend.ts";
import type { FileDiagnosticsResult } from "../../lsp/lsp-service.ts";
import { severityName } from "./diagnostic-lines.ts";
import { checkProjects, type ProjectChecks } from "./project-checkers.ts";
import { checkPythonFiles } from "./python-project-check.ts";

/** A workspace check opens every file in a server; past this many the rest is reported as not checked. */
const MAX_WORKSPACE_FILES = 2000;
/** A workspace or directory check answers within this, partial past it (naming what it left out). */
const WORKSPACE_BUDGET_MS = 90_000;

export const lspDiagnosticsBackend: DiagnosticsBackend = {
  name: "language servers",
  checksTypes: true,
  async covers(ctx, req) {
    if (req.file !== undefined) return ctx.lsp.handles(req.file);
    return ctx.lsp.handlesWorkspace(ctx.signal);
  },
  async collect(ctx, req) {
    const call = { signal: ctx.signal, onProgress: (message: string) => ctx.progress(0, { message }) };
    const directory = req.file !== undefined && (await ctx.fs.stat(req.file)).isDirectory;
    if (req.file !== undefined && !directory) return reportOf([await ctx.lsp.diagnosticsFor(req.file, call)], []);
    const deadline = Date.now() + WORKSPACE_BUDGET_MS;
    const projects = mergeChecks([
      await checkProjects(ctx, { under: req.file, deadline }),
      await checkPythonFiles(ctx, { under: req.file, deadline }),
    ]);
    const found = await ctx.lsp.workspaceDiagnostics({
      ...call,
      maxFiles: MAX_WORKSPACE_FILES,
      deadline,
      except: projects.checked,
      ...(req.file === undefined ? {} : { under: req.file }),
    });
    const skipped = [...found.failed];
    const bound = found.notChecked - found.notReached.length;
    if (bound > 0)
      skipped.push({
        source: "language servers",
        reason: `${bound} more file(s) not checked (at most ${MAX_WORKSPACE_FILES} per call); pass file for one of them`,
      });
    const servers = reportOf(found.files, skipped);
    const partial = [projects.partial, found.notReached.length > 0 ? budgetNote(found.notReached) : undefined].filter(
      (p) => p !== undefined,
    );
    const report: DiagnosticsReport = {
      diagnostics: [...projects.diagnostics, ...servers.diagnostics],
      sources: [...projects.sources, ...servers.sources],
      // The compiler's notes (a reference outside the workspace) are no file a type-checking CLI would check.
      skipped: [...projects.skipped, ...servers.skipped],
      typesChecked: servers.skipped.length === 0 || partial.length > 0,
    };
    if (partial.length > 0) report.partial = partial.join("; ");
    return report;
  },
};

/** The whole-project checkers' answers as one. */
function mergeChecks(checks: readonly ProjectChecks[]): ProjectChecks {
  const partial = checks.map((c) => c.partial).filter((p) => p !== undefined);
  return {
    diagnostics: checks.flatMap((c) => c.diagnostics),
    sources: checks.flatMap((c) => c.sources),
    skipped: checks.flatMap((c) => c.skipped),
    checked: new Set(checks.flatMap((c) => [...c.checked])),
    ...(partial.length > 0 ? { partial: partial.join("; ") } : {}),
  };
}

/** What the budget left out: the directories of the files not reached (the lowest ranked: benchmarks, examples, configuration). */
function budgetNote(notReached: readonly string[]): string {
  const dirs = [...new Set(notReached.map((f) => (f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : ".")))];
  const named = dirs.slice(0, 8).join(", ") + (dirs.length > 8 ? ` and ${dirs.length - 8} more` : "");
  return `the ${WORKSPACE_BUDGET_MS / 1000} s budget ran out before ${notReached.length} file(s) were checked, in ${named}; pass file with one of these directories to check it on its own`;
}

function reportOf(files: readonly FileDiagnosticsResult[], skipped: DiagnosticsReport["skipped"]): DiagnosticsReport {
  const report: DiagnosticsReport = { diagnostics: [], sources: [], skipped };
  const late = files.filter((f) => !f.current && f.why === undefined);
  const unsettled = files.filter((f) => !f.current && f.why !== undefined);
  for (const file of files) {
    if (!report.sources.includes(file.server)) report.sources.push(file.server);
    report.diagnostics.push(...file.items.map((d) => shapeOf({ file: file.relative, server: file.server }, d)));
  }
  if (late.length > 0)
    skipped.push({
      source: late[0]?.server ?? "language server",
      reason: `published nothing in time for ${late
        .map((f) => f.relative)
        .slice(0, 5)
        .join(", ")}${late.length > 5 ? ` and ${late.length - 5} more` : ""}; call again to re-check`,
    });
  for (const file of unsettled)
    skipped.push({
      source: file.server,
      reason: `${file.relative}: may be stale, ${file.why} after a change on disk; call again to re-check`,
    });
  return report;
}

/** A language server's diagnostic in the bridge's shape: 1-based, the file root-relative. */
export function shapeOf(at: { file: string; server: string }, d: LspDiagnostic): Diagnostic {
  const { file, server } = at;
  const out: Diagnostic = {
    file,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: severityName(d) as Diagnostic["severity"],
    message: typeof d.message === "string" ? d.message : (d.message as { value: string }).value,
    source: d.source ?? server,
  };
  if (d.code !== undefined) out.code = diagnosticCode(d.source, d.code);
  return out;
}
