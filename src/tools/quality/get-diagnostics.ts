// getDiagnostics: errors and warnings for one file or the workspace, in one shape whatever found
// them (src/services/diagnostics/diagnostic.ts), merged from every backend that covers the request
// (src/services/diagnostics/backends.ts): language servers' type errors, then the linters. With VS
// Code connected, its diagnostics instead (src/services/diagnostics/vscode-diagnostics.ts).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { Diagnostic, SEVERITIES, atLeast, compareDiagnostics } from "../../services/diagnostics/diagnostic.ts";
import type { DiagnosticsReport } from "../../services/diagnostics/diagnostics-backend.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DIAGNOSTICS_BACKENDS } from "../../services/diagnostics/backends.ts";
import { vscodeDiagnostics } from "../../services/diagnostics/vscode-diagnostics.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";
import { publishDiagnosticsChecked } from "../../services/automation/diagnostics-checked.ts";

const DEFAULT_MAX = 200;

export const DiagnosticsResult = v.object({
  diagnostics: v.array(Diagnostic),
  counts: v.pipe(
    v.object({ error: v.number(), warning: v.number(), info: v.number(), hint: v.number() }),
    v.description("All diagnostics found, by severity, before filters."),
  ),
  omitted: v.optional(v.pipe(v.number(), v.description("Diagnostics left out by maxResults."))),
  sources: v.pipe(v.array(v.string()), v.description("What checked: checker CLIs or language servers.")),
  skipped: v.array(v.object({ source: v.string(), reason: v.string() })),
  partial: v.optional(v.pipe(v.string(), v.description("The call's time budget ran out: what was not checked."))),
});

export default defineTool({
  name: "getDiagnostics",
  title: "Diagnostics",
  description:
    "Errors and warnings for a file or the workspace, worst first, from language servers or the project's checkers (tsc, eslint, ruff, cargo, go vet); they run the project's config code (eslint.config.js).",
  searchHint:
    "type errors in a file or project, warnings, problems; why does this not compile, what is broken; type check, lint, tsc eslint pyright ruff",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.description("One file or directory (default: all)."))),
    severity: v.optional(v.pipe(v.picklist(SEVERITIES), v.description('The least severity to report (default "hint": everything).'))),
    maxResults: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2000), v.description(`Default ${DEFAULT_MAX}.`))),
  }),
  output: DiagnosticsResult,
  annotations: { readOnlyHint: true },
  // rg lists a directory's Python files for pyright's CLI (the built-in walk otherwise).
  requires: { optionalProbes: ["rg"] },
  timeoutMs: 300_000,
  async viaExtension(input, ctx) {
    const uri = input.file === undefined ? undefined : toFileUri(await ctx.fs.resolve(input.file));
    const report = await vscodeDiagnostics(ctx, uri === undefined ? {} : { uri });
    publishDiagnosticsChecked(ctx.events, {
      scope: input.file === undefined ? undefined : ctx.fs.relative(await ctx.fs.resolve(input.file)),
      report,
    });
    return shape(report, { minSeverity: input.severity ?? "hint", maxResults: input.maxResults ?? DEFAULT_MAX });
  },
  async handler(input, ctx) {
    const file = input.file === undefined ? undefined : ctx.fs.relative(await ctx.fs.resolve(input.file));
    const merged: DiagnosticsReport = { diagnostics: [], sources: [], skipped: [] };
    let answered = false;
    let typesChecked = false;
    for (const backend of DIAGNOSTICS_BACKENDS) {
      const request = { ...(file === undefined ? {} : { file }), typesChecked };
      if (!(await backend.covers(ctx, request))) continue;
      const report = await backend.collect(ctx, request);
      merged.diagnostics.push(...report.diagnostics);
      merged.sources.push(...report.sources.filter((s) => !merged.sources.includes(s)));
      merged.skipped.push(...report.skipped);
      if (report.partial !== undefined) merged.partial = report.partial;
      answered = true;
      // A server that failed or left files out did not check them: the type-checking CLIs still may,
      // unless the budget is spent (a whole-project type check now would only outlast it further).
      typesChecked ||=
        backend.checksTypes === true && (report.typesChecked ?? (report.skipped.length === 0 || report.partial !== undefined));
    }
    if (answered) publishDiagnosticsChecked(ctx.events, { scope: file, report: merged });
    if (answered) return shape(merged, { minSeverity: input.severity ?? "hint", maxResults: input.maxResults ?? DEFAULT_MAX });
    throw new ToolError(
      "not_detected",
      `No checker covers ${file ?? "this workspace"}: none of tsc, eslint, biome, ruff, pyright, cargo or go vet is declared by the project (config file or dependency)`,
      {
        suggestion: "Add the project's checker configuration, or run its check command with runCommand.",
      },
    );
  },
});

export function shape(
  report: DiagnosticsReport,
  limits: { minSeverity: (typeof SEVERITIES)[number]; maxResults: number },
): v.InferOutput<typeof DiagnosticsResult> {
  const { minSeverity: min, maxResults: max } = limits;
  const kept = report.diagnostics.filter((d) => atLeast(d.severity, min)).sort(compareDiagnostics);
  const count = (s: (typeof SEVERITIES)[number]) => report.diagnostics.filter((d) => d.severity === s).length;
  const counts = { error: count("error"), warning: count("warning"), info: count("info"), hint: count("hint") };
  const result: v.InferOutput<typeof DiagnosticsResult> = {
    diagnostics: kept.slice(0, max),
    counts,
    sources: report.sources,
    skipped: report.skipped,
  };
  if (kept.length > max) result.omitted = kept.length - max;
  if (report.partial !== undefined) result.partial = report.partial;
  return result;
}
