// The language's own checker, run before and after an edit is written, so that the edit's error
// delta does not rest on the language server alone: a server checks the files it was asked about,
// within its bounds and its project's configuration (pyright's `include` leaves a project's tests
// out of its program), where the checker the project's CI runs checks them all. Python: pyright's
// CLI over the files named (named files are checked whatever `include` says). Go: go vet over the
// module (`./...`, tests included; a package it does not compile is reported, not skipped), in the
// environment that keeps it from running any program (GO_CHECK_ENV).
import type { ToolContext } from "../../capabilities/context.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import { GO_CHECK_ENV } from "../../security/commands/rules/go-rules.ts";
import { runBudget, timedOutReason } from "./call-budget.ts";
import { checkerFailure } from "./checker-failure.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { parseLocationLines } from "./parsers/location-lines.ts";
import { parsePyrightJson } from "./parsers/pyright-json.ts";

/** One run may take this long; past it the edit's answer says the checker did not finish. */
const CHECK_TIMEOUT_MS = 90_000;
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Files named on one pyright command line; past this many, the rest are said not checked. */
const MAX_NAMED_FILES = 400;

export interface LanguageChecker {
  /** How the answer names it: "pyright (CLI)", "go vet". */
  name: string;
  program: string;
  /** "files": checks the files it is given; "module": checks the whole module it runs in. */
  scope: "files" | "module";
  /** The files of its language. */
  extensions: readonly string[];
  args(files: readonly string[]): readonly string[];
  env: Readonly<Record<string, string>>;
  /** Its problems, files relative to `cwd`. */
  parse(stdout: string, stderr: string, cwd: string): Promise<Diagnostic[]> | Diagnostic[];
}

const CHECKERS: Readonly<Record<string, LanguageChecker>> = {
  python: {
    name: "pyright (CLI)",
    program: "pyright",
    scope: "files",
    extensions: [".py", ".pyi"],
    args: (files) => ["--outputjson", ...files.map(pathArgument)],
    env: { NO_COLOR: "1" },
    parse: async (stdout, _stderr, cwd) => (await parsePyrightJson(stdout, cwd)).filter((d) => d.severity === "error"),
  },
  go: {
    name: "go vet",
    program: "go",
    scope: "module",
    extensions: [".go"],
    args: () => ["vet", "./..."],
    env: GO_CHECK_ENV,
    // Type errors and vet's findings alike: either fails the project's `go vet`.
    parse: (_stdout, stderr, cwd) => parseLocationLines(stderr, cwd, { source: "go vet" }).map((d) => ({ ...d, severity: "error" })),
  },
};

export function languageChecker(languageId: string): LanguageChecker | undefined {
  return CHECKERS[languageId];
}

export interface LanguageCheck {
  checker: string;
  /** Its errors, files root-relative. */
  errors: Diagnostic[];
  /** Files it checked (a module checker: the files asked about, all in the module). */
  files: number;
  /** Files it was asked about and did not check (past the bound of one command line). */
  notChecked: number;
  /** Why it could not check (not installed, failed, timed out); then `errors` is empty. */
  failed?: string;
  /** What the answer says it checked, when the checker says it itself ("2 tsconfig projects (...)"). */
  scope?: string;
  /** Nothing for it to check here (no tsconfig project at all): the answer says nothing of it. */
  inapplicable?: boolean;
  /** Whether its run covered a root-relative file (one the server's bound left out may still be checked here). */
  covers?: (file: string) => boolean;
}

/**
 * Runs the checker over `files` (root-relative) from `cwd` (root-relative; the module's folder for
 * a module checker). Failures are answered, not thrown: the edit is not the checker's to refuse.
 */
export async function runLanguageCheck(
  ctx: ToolContext,
  checker: LanguageChecker,
  opts: { files: readonly string[]; cwd: string },
): Promise<LanguageCheck> {
  const namedFiles = checker.scope === "files" ? opts.files.slice(0, MAX_NAMED_FILES) : [];
  const base = { checker: checker.name, errors: [], files: checker.scope === "files" ? namedFiles.length : opts.files.length };
  const notChecked = opts.files.length - base.files;
  const named = new Set(checker.scope === "files" ? namedFiles : opts.files);
  const covers = (file: string) => named.has(file) || (checker.scope === "module" && inModule(file, opts.cwd, checker));
  if (!(await ctx.exec.hasToolchain(checker.program)))
    return { ...base, notChecked, failed: `${checker.program} is not installed where the bridge can run it` };
  const prefix = opts.cwd === "" || opts.cwd === "." ? "" : `${opts.cwd.replace(/\/$/, "")}/`;
  const relativeToCwd = namedFiles.map((f) => (prefix !== "" && f.startsWith(prefix) ? f.slice(prefix.length) : f));
  const budget = runBudget(ctx, CHECK_TIMEOUT_MS);
  try {
    const result = await ctx.exec.runToolchain(checker.program, {
      args: checker.args(relativeToCwd),
      cwd: opts.cwd === "" ? "." : opts.cwd,
      timeoutMs: budget.timeoutMs,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      env: checker.env,
    });
    const cwd = prefix === "" ? ctx.fs.root : `${ctx.fs.root}/${prefix.slice(0, -1)}`;
    const errors = (await checker.parse(result.stdout, result.stderr, cwd)).map((d) => ({ ...d, file: `${prefix}${d.file}` }));
    if (result.timedOut) return { ...base, notChecked, failed: timedOutReason(budget, CHECK_TIMEOUT_MS) };
    // Failed with nothing to show: it checked nothing (a bad config, a module it cannot load).
    if (errors.length === 0 && result.exitCode !== 0)
      return {
        ...base,
        notChecked,
        failed: `it exited ${result.exitCode}: ${checkerFailure(checker.program, result.stderr.trim() || result.stdout.trim())}`,
      };
    return { ...base, errors, notChecked, covers };
  } catch (err) {
    return { ...base, notChecked, failed: err instanceof Error ? err.message : String(err) };
  }
}

/** What the edit changed by the checker: errors after and not before, and before and not after (by file and message: lines move). */
export function checkDelta(before: LanguageCheck, after: LanguageCheck): { introduced: Diagnostic[]; fixed: Diagnostic[] } {
  const count = (list: readonly Diagnostic[]) => {
    const counts = new Map<string, number>();
    for (const d of list) counts.set(keyOf(d), (counts.get(keyOf(d)) ?? 0) + 1);
    return counts;
  };
  const beyond = (list: readonly Diagnostic[], other: Map<string, number>) =>
    list.filter((d) => {
      const left = other.get(keyOf(d)) ?? 0;
      other.set(keyOf(d), left - 1);
      return left <= 0;
    });
  return { introduced: beyond(after.errors, count(before.errors)), fixed: beyond(before.errors, count(after.errors)) };
}

/** A module checker checks every file of its language under the folder it runs in. */
function inModule(file: string, cwd: string, checker: LanguageChecker): boolean {
  const prefix = cwd === "" || cwd === "." ? "" : `${cwd.replace(/\/$/, "")}/`;
  return file.startsWith(prefix) && checker.extensions.some((e) => file.endsWith(e));
}

function keyOf(d: Diagnostic): string {
  return `${d.file}\u0000${d.code ?? ""}\u0000${d.message}`;
}
