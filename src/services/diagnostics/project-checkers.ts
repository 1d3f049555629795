// Whole-workspace and directory diagnostics of TypeScript through the compiler, one run per
// tsconfig project (tsgo-check.ts), instead of one language-server request per file: on a
// solution-style fixture of 331 files it is no faster cold (0.73x to 0.99x of the per-file time in
// two runs at load 9-11, bench/lsp-truth.mjs `workspace`) and, with each project's answer kept while
// nothing it read changed (kept-answers.ts), a little faster warm (1.14x); what it adds is
// that it is the check the project's CI runs, so an error only the spec project's
// stricter options find (the tests' config) is reported, where a server answers each file from the
// one project it puts the file in. The projects with files in the requested directory run one at
// a time, the project's own code first, each with a progress notification, within the call's
// deadline: a project not checked by then is named in `partial`. The files their programs checked
// are returned, so the language servers check only the rest (files of no project, other languages).
import type { ToolContext } from "../../capabilities/context.ts";
import type { Diagnostic } from "./diagnostic.ts";
import type { DiagnosticsReport } from "./diagnostics-backend.ts";
import { projectsInScope, type ScopedProject } from "./ts-projects.ts";
import { defineToolsetState } from "../../capabilities/toolset-state.ts";
import { KeptAnswers } from "./kept-answers.ts";
import { staleReferences, staleReferencesRefusal } from "./stale-references.ts";
import { checkTsProject, type ProjectCheck } from "./tsgo-check.ts";

/** Each project's compiler answer of the whole-workspace check (or its TS6305 refusal), kept while what it was computed from is unchanged. */
const PROJECT_CHECKS = defineToolsetState("diagnostics.project-checks", () => new KeptAnswers<ProjectCheck>(64));

/** One project's run at most, whatever budget is left. */
const PROJECT_TIMEOUT_MS = 180_000;

export interface ProjectChecks extends DiagnosticsReport {
  /** Files checked in full by a project's compiler run (root-relative), in scope or not. */
  checked: Set<string>;
}

/** The TypeScript projects with files under `under` checked by the compiler, within `deadline` (epoch ms). */
export async function checkProjects(ctx: ToolContext, opts: { under: string | undefined; deadline: number }): Promise<ProjectChecks> {
  const out: ProjectChecks = { diagnostics: [], sources: [], skipped: [], checked: new Set() };
  if (!(await ctx.exec.hasToolchain("tsgo"))) return out;
  const scope = await projectsInScope(ctx, opts.under);
  out.skipped.push(...scope.notes.map((reason) => ({ source: "tsgo", reason })));
  const inScope = (file: string) =>
    opts.under === undefined || file === opts.under || file.startsWith(`${opts.under.replace(/\/+$/, "")}/`);
  const seen = new Set<string>();
  const notChecked: string[] = [];
  let outside = 0;
  const total = scope.projects.length;
  for (const [i, project] of scope.projects.entries()) {
    const left = opts.deadline - Date.now();
    if (left <= 0 || ctx.signal.aborted) {
      notChecked.push(project.name);
      continue;
    }
    ctx.progress(i, { total, message: `tsgo -p ${project.name} (${project.files} files in scope; project ${i + 1} of ${total})` });
    const run = await cachedCheck(ctx, project, { timeoutMs: Math.min(left, PROJECT_TIMEOUT_MS), configs: scope.configs });
    if (run.timedOut) {
      notChecked.push(project.name);
      continue;
    }
    if (run.failed !== undefined) {
      out.skipped.push({ source: `tsgo -p ${project.name}`, reason: `${run.failed}; its files were checked file by file instead` });
      continue;
    }
    out.sources.push(`tsgo -p ${project.name}`);
    for (const file of run.files) out.checked.add(file);
    outside += run.outside;
    // A file in two programs (the spec project imports the sources) is reported by each: once is enough.
    for (const d of run.diagnostics) {
      if (!inScope(d.file) || seen.has(keyOf(d))) continue;
      seen.add(keyOf(d));
      out.diagnostics.push(d);
    }
  }
  if (total > 0) ctx.progress(total, { total, message: `tsgo checked ${total - notChecked.length} of ${total} project(s)` });
  if (outside > 0)
    out.skipped.push({
      source: "tsgo",
      reason: `${outside} diagnostic(s) in files outside the workspace (a tsconfig's include or references point there) were left out`,
    });
  if (notChecked.length > 0)
    out.partial = `the time budget ran out before tsgo checked the project(s) ${notChecked.join(", ")}; their files were not checked: pass file with a directory of one of them to check it on its own`;
  return out;
}

/** The kept answer while nothing it was computed from changed (kept-answers.ts), else a fresh run, kept. */
async function cachedCheck(
  ctx: ToolContext,
  scoped: ScopedProject,
  opts: { timeoutMs: number; configs: readonly string[] },
): Promise<ProjectCheck> {
  const project = scoped.name;
  const cache = ctx.state(PROJECT_CHECKS);
  const kept = await cache.lookup(ctx, project);
  if (kept !== undefined) return withCurrentReferences(ctx, scoped, kept);
  const start = await cache.start(ctx, project);
  const check = await checkTsProject(ctx, project, { timeoutMs: opts.timeoutMs });
  // A failure is not kept, but a refusal over unbuilt references is: it depends on the same inputs and the outputs it found missing.
  if ((check.failed !== undefined && check.refusedOn === undefined) || check.timedOut === true) return check;
  await cache.keep(ctx, project, {
    value: check,
    files: check.refusedOn ?? check.files,
    configs: opts.configs,
    start,
    readsOutside: check.readsOutside === true,
  });
  return withCurrentReferences(ctx, scoped, check);
}

/**
 * The check, or a refusal when its program read a referenced project's build output that is older
 * than that project's sources (stale-references.ts): asked each time, kept answer or not, since the
 * kept answer's inputs are the output files, which a change to the sources leaves as they were.
 */
async function withCurrentReferences(ctx: ToolContext, scoped: ScopedProject, check: ProjectCheck): Promise<ProjectCheck> {
  if (check.failed !== undefined || check.timedOut === true) return check;
  const project = scoped.name;
  const stale = await staleReferences(ctx, {
    compiler: "tsgo",
    project,
    references: async () => scoped.references,
    programFiles: check.files,
  });
  if (stale !== undefined && stale.length === 0) return check;
  return { diagnostics: [], files: [], outside: 0, failed: staleReferencesRefusal(project, { stale, compiler: "tsgo" }) };
}

function keyOf(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}:${d.code ?? ""}:${d.message}`;
}
