// An edit's error delta, checked by the language's own checker too (language-check.ts,
// typescript-check.ts): the checker runs over the files the edit may break (those it edits and
// those that use what it changes) as they are before the write, and again after it; what it finds
// new is added to the edit's introduced errors (unless the server reported an error on the same
// line), so an answer never says "0 introduced" over errors the project's checker reports. Files
// the server's bound left unchecked that the checker covered are counted as checked, by it. Where
// it cannot run, the answer says so. JavaScript files are TypeScript's compiler's to check too: a
// project that allows (and checks) them holds them in its program; one that does not leaves them
// out, and the answer counts them not checked.
import type { ToolContext } from "../../capabilities/context.ts";
import type { CheckerNote, ErrorAt } from "../../lsp/apply-edit.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { checkDelta, type LanguageCheck, languageChecker, runLanguageCheck } from "./language-check.ts";
import { runModuleChecks } from "./module-check.ts";
import { projectsHolding, runTypeScriptCheck, TS_FILES, type TsProjects, typescriptCompiler } from "./typescript-check.ts";

/** What a checker's run adds to: an edit's outcome, or a transaction commit's tally. */
export interface CheckedErrors {
  introduced: ErrorAt[];
  fixed: ErrorAt[];
  checks?: CheckerNote[];
  written: boolean;
  /** Files past the server's bound (root-relative), and their count. */
  notChecked: number;
  notCheckedFiles?: string[];
}

export interface EditCheck {
  /** For ApplyEditOptions.beforeWrite: the write waits for the run over the files as they were. */
  beforeWrite(): Promise<void>;
  /** For ApplyEditOptions.afterWrite: starts the run over the files as written (settle awaits it). */
  afterWrite(): void;
  /** Whether the run before the write checked (so its after run will too, barring a failure then). */
  usable(): Promise<boolean>;
  /** After the edit: runs the checker again and adds what it found new to `target`. */
  settle(target: CheckedErrors): Promise<void>;
}

/** Said of a check whose search for the files using the edited ones was cut by its bounds (edit-dependents.ts). */
const UNSEARCHED = "; files that use the edited ones only through more links were not looked for";
const TYPESCRIPT = new Set(["typescript", "typescriptreact", "javascript", "javascriptreact"]);
/** The files TypeScript's compiler checks, in a project that allows JavaScript. */
const JS_FILES = [".js", ".jsx", ".mjs", ".cjs"] as const;

/** The checker family of a language: edits in languages of one family are checked by one run (TypeScript's compiler checks JavaScript). */
export function editCheckFamily(languageId: string): string {
  return TYPESCRIPT.has(languageId) ? "typescript" : languageId;
}

/**
 * The check of an edit in `languageId`, run from the server's project root (root-relative) over
 * `files` (root-relative; those of other languages or outside the project are left out), or
 * undefined when the language has no checker here. The first run starts at once.
 */
export function languageEditCheck(
  ctx: ToolContext,
  at: { languageId: string; projectRoot: string; files: Iterable<string>; unsearched?: boolean },
): EditCheck | undefined {
  const run = TYPESCRIPT.has(at.languageId) ? typescriptRun(ctx, at.files) : checkerRun(ctx, at);
  if (run === undefined) return undefined;
  const before = run.run();
  let after: Promise<LanguageCheck> | undefined;
  // The second run starts once the first has ended: both over the same projects, one at a time.
  const startAfter = () => {
    after ??= before.then(() => run.run());
    return after;
  };
  return {
    beforeWrite: async () => {
      await before;
    },
    afterWrite: () => {
      startAfter().catch(() => undefined);
    },
    usable: async () => {
      const first = await before;
      return first.failed === undefined && first.inapplicable !== true;
    },
    async settle(target) {
      if (!target.written) return;
      const first = await before;
      if (first.inapplicable === true) return;
      const second = await startAfter();
      const scope = `${second.scope ?? run.scope}${at.unsearched === true ? UNSEARCHED : ""}`;
      target.checks = [...(target.checks ?? []), noteOf(target, { scope, before: first, after: second })];
    },
  };
}

interface CheckRun {
  scope: string;
  run(): Promise<LanguageCheck>;
}

/** pyright's CLI over the files, go vet over each module holding one. */
function checkerRun(ctx: ToolContext, at: { languageId: string; projectRoot: string; files: Iterable<string> }): CheckRun | undefined {
  const checker = languageChecker(at.languageId);
  if (checker === undefined) return undefined;
  if (checker.scope === "module") {
    const files = [...new Set(at.files)].filter((f) => checker.extensions.some((e) => f.endsWith(e))).sort();
    return { scope: "its module", run: () => runModuleChecks(ctx, checker, { files }) };
  }
  const prefix = at.projectRoot === "" || at.projectRoot === "." ? "" : `${at.projectRoot}/`;
  const files = [...new Set(at.files)].filter((f) => f.startsWith(prefix) && checker.extensions.some((e) => f.endsWith(e))).sort();
  return {
    scope: `${files.length} file(s)`,
    run: () => runLanguageCheck(ctx, checker, { files, cwd: at.projectRoot }),
  };
}

/** TypeScript's compiler over every tsconfig project holding one of the files, the same projects before and after. */
function typescriptRun(ctx: ToolContext, inputs: Iterable<string>): CheckRun {
  const files = [...new Set(inputs)].filter((f) => [...TS_FILES, ...JS_FILES].some((e) => f.endsWith(e))).sort();
  let projects: Promise<TsProjects | undefined> | undefined;
  const found = () => {
    projects ??= typescriptCompiler(ctx).then((compiler) =>
      compiler === undefined ? undefined : projectsHolding(ctx, { compiler, files }),
    );
    return projects;
  };
  return {
    scope: "its tsconfig projects",
    async run() {
      const known = await found();
      if (known === undefined)
        return {
          checker: "tsgo (CLI)",
          errors: [],
          files: 0,
          notChecked: files.length,
          failed: "neither tsgo nor tsc is installed where the bridge can run it",
        };
      return runTypeScriptCheck(ctx, known);
    },
  };
}

/** Adds the checker's new and fixed errors to the target; what the answer says of the checker. */
function noteOf(target: CheckedErrors, run: { scope: string; before: LanguageCheck; after: LanguageCheck }): CheckerNote {
  const { before, after } = run;
  const checker = after.checker;
  const failed = before.failed ?? after.failed;
  if (failed !== undefined) return { checker, scope: run.scope, introduced: 0, failed };
  const delta = checkDelta(before, after);
  const scope = after.notChecked > 0 ? `${run.scope} (${after.notChecked} more not checked)` : run.scope;
  target.introduced.push(...unseen(delta.introduced, target.introduced));
  target.fixed.push(...unseen(delta.fixed, target.fixed));
  // The files the server's bound left out that this run covered are checked now, by the checker.
  const past = target.notCheckedFiles ?? [];
  const covered = after.covers === undefined ? [] : past.filter((f) => after.covers?.(f) === true);
  if (covered.length > 0) {
    target.notCheckedFiles = past.filter((f) => !covered.includes(f));
    target.notChecked = Math.max(0, target.notChecked - covered.length);
  }
  return { checker, scope, introduced: delta.introduced.length, ...(covered.length > 0 ? { coveredUnchecked: covered.length } : {}) };
}

/**
 * The checker's errors on lines where the server reported none, in the server's shape: the two
 * word the same error differently (gopls and go vet on an unexported name), so a line is the match.
 */
function unseen(found: readonly Diagnostic[], reported: readonly ErrorAt[]): ErrorAt[] {
  const known = new Set(reported.map((e) => `${e.file}:${e.diagnostic.range.start.line + 1}`));
  return found
    .filter((d) => !known.has(`${d.file}:${d.line}`))
    .map((d) => ({
      file: d.file,
      diagnostic: {
        range: {
          start: { line: d.line - 1, character: d.column - 1 },
          end: { line: (d.endLine ?? d.line) - 1, character: (d.endColumn ?? d.column) - 1 },
        },
        severity: 1,
        message: d.message,
        source: d.source,
        ...(d.code === undefined ? {} : { code: d.code }),
      },
    }));
}
