// getDiagnostics' checker-CLI backend: the checkers the project uses for the file (or all of
// them), each run through ctx.exec.runToolchain, their reports read into the one Diagnostic shape.
// fixAllLintErrors runs the fixers through the same path, with their fixes written as
// lint-fixes.ts allows (never by a linter walking the workspace).
import { extensionOf } from "./parsers/paths.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { checkerFailure } from "./checker-failure.ts";
import { CHECKERS, type Checker } from "./checkers.ts";
import { fixPiped, fixTargets, writeFixedOutputs } from "./lint-fixes.ts";
import { type CheckerOutcome, keptEslint } from "./kept-eslint.ts";
import type { DiagnosticsBackend, DiagnosticsReport, DiagnosticsRequest } from "./diagnostics-backend.ts";
import { readProjectFacts } from "./project-facts.ts";
import { scratchOf } from "./tsgo-check.ts";

const CHECK_TIMEOUT_MS = 180_000;
const MAX_CHECKER_OUTPUT = 16 * 1024 * 1024;

/** One run's argv, or a function of the private report path exec makes for the run. */
type Argv = readonly string[] | ((reportPath: string) => readonly string[]);

/** The checkers for this request: declared by the project, or installed fallbacks. */
export async function chooseCheckers(
  ctx: ToolContext,
  file: string | undefined,
  opts: { fixing?: boolean; lintersOnly?: boolean } = {},
): Promise<Checker[]> {
  const project = await readProjectFacts(ctx);
  const ext = file === undefined ? undefined : extensionOf(file);
  const chosen: Checker[] = [];
  for (const checker of CHECKERS) {
    if (ext !== undefined && !checker.extensions.includes(ext)) continue;
    if (opts.fixing === true && checker.fixArgs === undefined) continue;
    if (opts.lintersOnly === true && checker.checksTypes === true) continue;
    if (await checker.declared(project)) chosen.push(checker);
    else if ((await checker.fallback?.(project)) === true && (await ctx.exec.hasToolchain(checker.program))) chosen.push(checker);
  }
  return chosen;
}

/** Runs each checker in turn (two CPU-heavy type checkers at once help nobody) and gathers what they report. */
export async function runCheckers(
  ctx: ToolContext,
  checkers: readonly Checker[],
  opts: { file: string | undefined; fixing?: boolean },
): Promise<DiagnosticsReport> {
  const { file } = opts;
  const report: DiagnosticsReport = { diagnostics: [], sources: [], skipped: [] };
  for (const checker of checkers) {
    if (!(await ctx.exec.hasToolchain(checker.program))) {
      report.skipped.push({ source: checker.name, reason: `${checker.program} is not installed (the project declares it)` });
      continue;
    }
    const fixing = opts.fixing === true && checker.fixArgs !== undefined;
    // A piped fixer fixes the file, or each file a check finds problems in; the check after it
    // reports what is left.
    if (fixing && checker.fixes === "piped")
      report.skipped.push(...(await fixPiped(ctx, { checker, files: await pipedTargets(ctx, checker, file) })));
    const runs: Argv[] =
      fixing && checker.fixes !== "piped" ? await fixArgvs(ctx, checker, file) : [(report) => checker.args(file, scratchOf(report))];
    if (runs.length === 0) {
      report.skipped.push({
        source: checker.name,
        reason: `no file it checks (${checker.extensions.join(", ")}) is in the workspace's file list`,
      });
      continue;
    }
    let checked = false;
    ctx.progress(0, { message: `${checker.name}${fixing ? " fixing" : ""} over ${file ?? "the workspace"}` });
    for (const args of runs) {
      const once = () => checkOnce(ctx, checker, args);
      // eslint over the whole workspace: its answer while nothing changed (kept-eslint.ts).
      const outcome: CheckerOutcome & { stdout?: string } =
        !fixing && file === undefined && checker.name === "eslint" ? await keptEslint(ctx, once) : await once();
      if (outcome.failed !== undefined) {
        report.skipped.push({ source: checker.name, reason: outcome.failed });
        continue;
      }
      checked = true;
      if (fixing && checker.fixes === "output" && outcome.stdout !== undefined)
        report.skipped.push(...(await writeFixedOutputs(ctx, outcome.stdout, { source: checker.name })));
      report.diagnostics.push(...(file === undefined ? outcome.all : outcome.all.filter((d) => d.file === file)));
    }
    if (checked) report.sources.push(checker.name);
  }
  return report;
}

/** One run of a checker: what it reports, or why it checked nothing; its output, for a fixer's fixes. */
async function checkOnce(ctx: ToolContext, checker: Checker, args: Argv): Promise<CheckerOutcome & { stdout?: string }> {
  const result = await ctx.exec.runToolchain(checker.program, {
    args,
    timeoutMs: CHECK_TIMEOUT_MS,
    maxOutputBytes: MAX_CHECKER_OUTPUT,
    env: { NO_COLOR: "1", FORCE_COLOR: "0", ...checker.env },
  });
  const all = await checker.parse(result, ctx.fs.root);
  // A checker that failed without a single diagnostic did not check anything (bad config, crash).
  if (all.length === 0 && result.exitCode !== 0) {
    const why = checkerFailure(checker.program, result.stderr.trim() || result.stdout.trim());
    const failed = result.timedOut ? `timed out after ${CHECK_TIMEOUT_MS} ms` : `exited ${result.exitCode}: ${why}`;
    return { all, failed, ...(result.timedOut || result.exitCode < 0 || result.exitCode > 125 ? { cut: true } : {}) };
  }
  return { all, stdout: result.stdout };
}

/** The file, or the files a run of the check reports problems in (in path order). */
async function pipedTargets(ctx: ToolContext, checker: Checker, file: string | undefined): Promise<string[]> {
  if (file !== undefined) return [file];
  const result = await ctx.exec.runToolchain(checker.program, {
    args: (report) => checker.args(undefined, scratchOf(report)),
    timeoutMs: CHECK_TIMEOUT_MS,
    maxOutputBytes: MAX_CHECKER_OUTPUT,
    env: { NO_COLOR: "1", FORCE_COLOR: "0", ...checker.env },
  });
  return [...new Set((await checker.parse(result, ctx.fs.root)).map((d) => d.file))].sort();
}

/** The argv of each run of a fixer: one over the file or the workspace, or one per batch of listed files. */
async function fixArgvs(ctx: ToolContext, checker: Checker, file: string | undefined): Promise<(readonly string[])[]> {
  const fixArgs = checker.fixArgs;
  if (fixArgs === undefined) return [];
  if (checker.fixes !== "in-place") return [fixArgs([file === undefined ? "." : pathArgument(file)])];
  return (await fixTargets(ctx, { checker, file })).map((targets) => fixArgs(targets));
}

export const cliDiagnosticsBackend: DiagnosticsBackend = {
  name: "checker CLIs",
  covers: async (ctx, req: DiagnosticsRequest) => (await chooseCheckers(ctx, req.file, { lintersOnly: req.typesChecked })).length > 0,
  collect: async (ctx, req) => runCheckers(ctx, await chooseCheckers(ctx, req.file, { lintersOnly: req.typesChecked }), { file: req.file }),
};
