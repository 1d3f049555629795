// TypeScript's own compiler as an edit's checker: `-p <project> --noEmit` for every tsconfig project
// whose program holds one of the files the edit may break (tsconfig-projects.ts finds the
// candidates, the compiler's --listFilesOnly says which hold them), so an edit in a solution-style
// repository is checked in the spec project as `tsc -b` would check it, not only where the server
// looked. TypeScript 7's compiler (tsgo: the project's, else the one the bridge ships) is preferred,
// the project's tsc otherwise. Nothing is written where the project's config says: no emit, and the
// build info and a configured trace go to the run's private directory (compilerCheckArgs).
import type { ToolContext } from "../../capabilities/context.ts";
import { runBudget, timedOutReason } from "./call-budget.ts";
import { checkerFailure } from "./checker-failure.ts";
import type { Diagnostic } from "./diagnostic.ts";
import type { LanguageCheck } from "./language-check.ts";
import { relativeTo } from "./parsers/paths.ts";
import { parseTscOutput } from "./parsers/tsc-output.ts";
import { tsconfigCandidates } from "./tsconfig-projects.ts";
import { defineToolsetState } from "../../capabilities/toolset-state.ts";
import { dirname, normalize } from "../../lib/paths/posix-path.ts";
import { parseJsonc } from "../../lsp/project-style.ts";
import { KeptAnswers } from "./kept-answers.ts";
import { staleReferences, staleReferencesRefusal } from "./stale-references.ts";
import { compilerCheckArgs, scratchOf } from "./tsgo-check.ts";

const CHECK_TIMEOUT_MS = 90_000;
const LIST_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Up to this many candidate projects are checked without listing their files first (one compiler run less per edit). */
const CHECKED_UNLISTED = 3;
const NO_PROJECT = "no tsconfig project holds the edited files";
/** Compiler runs at once: most of a small project's run is reading the standard library, which one core does. */
const RUNS_AT_ONCE = 2;
/** The files a TypeScript project may hold. */
export const TS_FILES = [".ts", ".tsx", ".mts", ".cts"] as const;
/** tsconfig files a project's `references` may name, followed at most. */
const MAX_REFERENCED = 32;
/** A file of the compiler's own standard library, as --listFiles names it. */
const COMPILER_LIB = /\/lib\/lib\.[\w.]+\.d\.ts$/;
/** Output of a referenced project not built: the importing project is then checked against nothing. */
const NOT_BUILT = new Set(["TS6305", "TS6306"]);

export interface TsProject {
  /** Root-relative tsconfig path. */
  config: string;
  /** Root-relative files of its program. */
  files: ReadonlySet<string>;
}

export interface TsProjects {
  compiler: "tsgo" | "tsc";
  projects: TsProject[];
  /** The files asked about; those no project's program holds. */
  asked: string[];
  outside: string[];
  /** Why the projects could not be known, or some were not looked at. */
  failed?: string;
  /** No tsconfig.json from the files' folders up to the root: no project to check. */
  none?: boolean;
  /**
   * The candidates are few, so none was listed apart: the first check lists each program's files
   * (--listFiles) and keeps those holding a file, for itself and the checks after it.
   */
  unlisted?: boolean;
  partial?: string;
}

/** tsgo where the bridge can run it, else tsc, else undefined. */
export async function typescriptCompiler(ctx: ToolContext): Promise<"tsgo" | "tsc" | undefined> {
  if (await ctx.exec.hasToolchain("tsgo")) return "tsgo";
  return (await ctx.exec.hasToolchain("tsc")) ? "tsc" : undefined;
}

/** The projects whose programs hold one of root-relative `files`, by the compiler's own file lists. */
export async function projectsHolding(ctx: ToolContext, opts: { compiler: "tsgo" | "tsc"; files: readonly string[] }): Promise<TsProjects> {
  const { compiler, files } = opts;
  const found = await tsconfigCandidates(ctx, files);
  const common = {
    compiler,
    asked: [...files],
    ...(found.none ? { none: true } : {}),
    ...(found.truncated ? { partial: `only the first ${found.configs.length} tsconfig projects were looked at` } : {}),
  };
  if (found.configs.length <= CHECKED_UNLISTED)
    return { ...common, projects: found.configs.map((config) => ({ config, files: new Set<string>() })), outside: [], unlisted: true };
  const failures: string[] = [];
  const listed = await inTurn(found.configs, async (config) => {
    const run = await compile(ctx, compiler, { project: config, listOnly: true, timeoutMs: runBudget(ctx, LIST_TIMEOUT_MS).timeoutMs });
    const held = run instanceof Error ? new Set<string>() : programFiles(ctx, run.stdout);
    if (run instanceof Error || (run.exitCode !== 0 && held.size === 0))
      failures.push(`${config}: ${run instanceof Error ? run.message : checkerFailure(compiler, run.stderr.trim() || run.stdout.trim())}`);
    return { config, files: held };
  });
  const projects = listed.filter((p) => files.some((f) => p.files.has(f)));
  const outside = files.filter((f) => !projects.some((p) => p.files.has(f)));
  return {
    ...common,
    projects,
    outside,
    ...(projects.length === 0 ? { failed: failures.length > 0 ? failures.join("; ") : NO_PROJECT } : {}),
  };
}

/** The compiler over every project, errors root-relative; a project it could not check fails the whole check (said why). */
export async function runTypeScriptCheck(ctx: ToolContext, found: TsProjects): Promise<LanguageCheck> {
  const checker = `${found.compiler} (CLI)`;
  if (found.none === true) return { checker, errors: [], files: 0, notChecked: 0, inapplicable: true };
  const runs = await inTurn(found.projects, async (project) => {
    const budget = runBudget(ctx, CHECK_TIMEOUT_MS);
    return { config: project.config, budget, run: await keptCompile(ctx, found.compiler, { project: project.config, budget }) };
  });
  if (found.unlisted === true) keepHolding(ctx, found, runs);
  const names = found.projects.map((p) => p.config);
  const listed = `${names.slice(0, 5).join(", ")}${names.length > 5 ? ` and ${names.length - 5} more` : ""}`;
  const scope =
    names.length === 0
      ? {}
      : {
          scope: `${names.length} tsconfig project${names.length === 1 ? "" : "s"} (${listed}${found.partial === undefined ? "" : `; ${found.partial}`})`,
        };
  // What the programs hold is read again from each run (--listFiles): a file the edit creates is in them after it.
  const covered = new Set<string>();
  const base = () => ({
    checker,
    ...scope,
    errors: [],
    files: covered.size,
    notChecked: found.asked.filter((f) => !covered.has(f)).length,
    covers: (f: string) => covered.has(f),
  });
  if (found.failed !== undefined) return { ...base(), failed: found.failed };
  const errors = new Map<string, Diagnostic>();
  for (const { config, run, budget } of runs.filter((r) => names.includes(r.config))) {
    if (run instanceof Error) return { ...base(), failed: `${config}: ${run.message}` };
    if (run.timedOut) return { ...base(), failed: `${config}: ${timedOutReason(budget, CHECK_TIMEOUT_MS)}` };
    const files = programFiles(ctx, run.stdout);
    for (const file of files) covered.add(file);
    const reported = parseTscOutput(run.stdout, ctx.fs.root).filter((d) => d.severity === "error");
    if (reported.length === 0 && run.exitCode !== 0)
      return {
        ...base(),
        failed: `${config}: it exited ${run.exitCode}: ${checkerFailure("tsc", run.stderr.trim() || run.stdout.trim())}`,
      };
    const unbuilt = reported.find((d) => d.code !== undefined && NOT_BUILT.has(d.code));
    if (unbuilt !== undefined)
      return {
        ...base(),
        failed: `${config} imports a referenced project whose output is not built (${unbuilt.code}), so its uses of it are unchecked; run \`tsc -b\` once`,
      };
    const stale = await staleReferences(ctx, {
      compiler: found.compiler,
      project: config,
      references: async () => (await projectConfigs(ctx, config)).slice(1),
      programFiles: [...files],
    });
    if (stale === undefined || stale.length > 0)
      return { ...base(), failed: staleReferencesRefusal(config, { stale, compiler: found.compiler }) };
    for (const d of reported) errors.set(`${d.file}:${d.line}:${d.column}:${d.code ?? ""}:${d.message}`, { ...d, source: found.compiler });
  }
  return { ...base(), errors: [...errors.values()] };
}

type CompileRun = Awaited<ReturnType<ToolContext["exec"]["runToolchain"]>>;

/** Each project's last compiler run of an edit check, kept while what it read is unchanged (kept-answers.ts). */
const KEPT_RUNS = defineToolsetState("diagnostics.kept-compiler-runs", () => new KeptAnswers<CompileRun>(32));

/**
 * The project's compiler run: the one kept from the last check when nothing it read changed since
 * (an edit's "after" is the next edit's "before"), else a new one, kept for the next check.
 */
async function keptCompile(
  ctx: ToolContext,
  compiler: "tsgo" | "tsc",
  opts: { project: string; budget: { timeoutMs: number } },
): Promise<CompileRun | Error> {
  const kept = ctx.state(KEPT_RUNS);
  const key = `${compiler}\u0000${opts.project}`;
  const reused = await kept.lookup(ctx, key);
  if (reused !== undefined) return reused;
  const start = await kept.start(ctx, key);
  const run = await compile(ctx, compiler, { project: opts.project, timeoutMs: opts.budget.timeoutMs });
  if (run instanceof Error || run.timedOut) return run;
  const reported = parseTscOutput(run.stdout, ctx.fs.root);
  // A run that failed (no errors to show for its exit), or checked against unbuilt references, is not kept.
  if ((run.exitCode !== 0 && reported.length === 0) || reported.some((d) => d.code !== undefined && NOT_BUILT.has(d.code))) return run;
  await kept.keep(ctx, key, {
    value: run,
    files: [...programFiles(ctx, run.stdout)],
    configs: await projectConfigs(ctx, opts.project),
    start,
    readsOutside: run.stdout
      .split(/\r?\n/)
      .some((l) => l.startsWith("/") && !l.startsWith(`${ctx.fs.root}/`) && !COMPILER_LIB.test(l.trimEnd())),
  });
  return run;
}

/** The project's tsconfig and those its `references` name, transitively (each read by `-p`), root-relative. */
async function projectConfigs(ctx: ToolContext, project: string): Promise<string[]> {
  const out: string[] = [];
  const queue = [project];
  for (let config = queue.shift(); config !== undefined && out.length < MAX_REFERENCED; config = queue.shift()) {
    if (out.includes(config)) continue;
    out.push(config);
    const text = await ctx.fs.readText(config, { maxBytes: 1024 * 1024 }).catch(() => undefined);
    const json = text === undefined ? undefined : parseJsonc(text);
    const references = Array.isArray(json?.references) ? json.references : [];
    for (const ref of references) {
      const path = typeof ref === "object" && ref !== null && "path" in ref && typeof ref.path === "string" ? ref.path : undefined;
      if (path === undefined) continue;
      const at = normalize(dirname(config) === "." ? path : `${dirname(config)}/${path}`);
      if (at === ".." || at.startsWith("../")) continue;
      queue.push(at.endsWith(".json") ? at : `${at}/tsconfig.json`);
    }
  }
  return out;
}

/**
 * After a first check of unlisted candidates: only the projects whose programs hold an asked file
 * stay; with none, the check fails, naming a candidate the compiler could not read if there was one.
 */
function keepHolding(ctx: ToolContext, found: TsProjects, runs: readonly { config: string; run: CompileRun | Error }[]): void {
  const held = runs.map(({ config, run }) => ({ config, files: run instanceof Error ? new Set<string>() : programFiles(ctx, run.stdout) }));
  found.projects = held.filter((p) => found.asked.some((f) => p.files.has(f)));
  found.outside = found.asked.filter((f) => !found.projects.some((p) => p.files.has(f)));
  delete found.unlisted;
  if (found.projects.length > 0) return;
  const unread = runs.flatMap(({ config, run }) =>
    run instanceof Error
      ? [`${config}: ${run.message}`]
      : run.exitCode !== 0 && programFiles(ctx, run.stdout).size === 0
        ? [`${config}: ${checkerFailure(found.compiler, run.stderr.trim() || run.stdout.trim())}`]
        : [],
  );
  found.failed = unread.length > 0 ? unread.join("; ") : NO_PROJECT;
}

async function compile(
  ctx: ToolContext,
  compiler: "tsgo" | "tsc",
  opts: { project: string; listOnly?: boolean; timeoutMs: number },
): Promise<CompileRun | Error> {
  const { project, listOnly, timeoutMs } = opts;
  try {
    return await ctx.exec.runToolchain(compiler, {
      args: (report) => compilerCheckArgs(compiler, { project, scratch: scratchOf(report), ...(listOnly === true ? { listOnly } : {}) }),
      cwd: ".",
      timeoutMs,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** `work` over every item, RUNS_AT_ONCE at a time, results in the items' order. */
async function inTurn<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(RUNS_AT_ONCE, items.length) }, worker));
  return results;
}

/** The root-relative files of a program as --listFiles / --listFilesOnly print them (absolute, one a line); files outside the root left out. */
function programFiles(ctx: ToolContext, stdout: string): Set<string> {
  const files = new Set<string>();
  for (const line of stdout.split(/\r?\n/)) {
    if (!line.startsWith("/") || /\(\d+,\d+\): /.test(line)) continue;
    const relative = relativeTo(ctx.fs.root, line.trimEnd());
    if (!relative.startsWith("/")) files.add(relative);
  }
  return files;
}
