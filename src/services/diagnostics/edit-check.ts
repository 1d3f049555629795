// An edit's error delta, checked by the language's own checker too (language-check.ts): the
// checker runs over the files the edit may break (those it edits and those that mention what it
// renames) as they are before the write, and again after it; what it finds new is added to the
// edit's introduced errors (unless the server reported an error on the same line), so an
// answer never says "0 introduced" over errors the project's checker reports. Where it cannot run,
// the answer says so.
import type { ToolContext } from "../../capabilities/context.ts";
import type { CheckerNote, EditOutcome, ErrorAt } from "../../lsp/apply-edit.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { checkDelta, type LanguageCheck, languageChecker, runLanguageCheck } from "./language-check.ts";

export interface EditCheck {
  /** For ApplyEditOptions.beforeWrite: the write waits for the run over the files as they were. */
  beforeWrite(): Promise<void>;
  /** After the edit: runs the checker again and adds what it found new to the outcome. */
  settle(outcome: EditOutcome): Promise<void>;
}

/**
 * The check of an edit in `languageId`, run from the server's project root (root-relative) over
 * `files` (root-relative; those of other languages or outside the project are left out), or
 * undefined when the language has no checker here. The first run starts at once.
 */
export function languageEditCheck(
  ctx: ToolContext,
  at: { languageId: string; projectRoot: string; files: Iterable<string> },
): EditCheck | undefined {
  const checker = languageChecker(at.languageId);
  if (checker === undefined) return undefined;
  const prefix = at.projectRoot === "" || at.projectRoot === "." ? "" : `${at.projectRoot}/`;
  const files = [...new Set(at.files)].filter((f) => f.startsWith(prefix) && checker.extensions.some((e) => f.endsWith(e))).sort();
  const run = () => runLanguageCheck(ctx, checker, { files, cwd: at.projectRoot });
  const before = run();
  const scope = checker.scope === "module" ? `the module${prefix === "" ? "" : ` in ${at.projectRoot}`}` : `${files.length} file(s)`;
  return {
    beforeWrite: async () => {
      await before;
    },
    async settle(outcome) {
      if (!outcome.written) return;
      const first = await before;
      const after = await run();
      outcome.checks = [...(outcome.checks ?? []), noteOf(outcome, { checker: checker.name, scope, before: first, after })];
    },
  };
}

/** Adds the checker's new and fixed errors to the outcome; what the answer says of the checker. */
function noteOf(outcome: EditOutcome, run: { checker: string; scope: string; before: LanguageCheck; after: LanguageCheck }): CheckerNote {
  const { before, after, checker } = run;
  const failed = before.failed ?? after.failed;
  if (failed !== undefined) return { checker, scope: run.scope, introduced: 0, failed };
  const delta = checkDelta(before, after);
  const scope = after.notChecked > 0 ? `${run.scope} (${after.notChecked} more not checked)` : run.scope;
  outcome.introduced.push(...unseen(delta.introduced, outcome.introduced));
  outcome.fixed.push(...unseen(delta.fixed, outcome.fixed));
  return { checker, scope, introduced: delta.introduced.length };
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
