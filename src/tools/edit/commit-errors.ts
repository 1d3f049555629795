// A transaction's commit verified after the fact like the LSP edits (src/tools/lsp/checked-apply.ts):
// the running servers' diagnostics of the written files before and after the write, once they have
// the new content (diagnostics-delta.ts), and the language's own checker (tsgo per tsconfig
// project, pyright's CLI, go vet) over the written files and those that import them, before the
// write and after it. One Errors line sums them, and says what was not checked.
import type { ToolContext } from "../../capabilities/context.ts";
import type { ErrorAt } from "../../lsp/apply-edit.ts";
import { languageIdOf } from "../../lsp/languages.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { diagnosticsDeltas } from "../../services/diagnostics/diagnostics-delta.ts";
import { editDependents } from "../../services/diagnostics/edit-dependents.ts";
import { type CheckedErrors, type EditCheck, editCheckFamily, languageEditCheck } from "../../services/diagnostics/edit-check.ts";
import { errorsLine, listedErrors } from "../../services/diagnostics/errors-line.ts";
import { usersOf } from "../../services/lsp-speculative/speculative-check.ts";

export interface CheckedCommit {
  /** Per written file, its diagnostics delta lines. */
  notes: Map<WorkspacePath, string[]>;
  /** The Errors line and the errors listed; none when no written file is of a language a server or checker knows. */
  errors: string[];
}

/** Runs `write` (the commit) between the before and after checks. */
export async function checkedCommit(
  ctx: ToolContext,
  opts: { paths: readonly WorkspacePath[]; write: () => Promise<void> },
): Promise<CheckedCommit> {
  const languages = new Map<string, string[]>();
  for (const path of opts.paths) {
    const relative = ctx.fs.relative(path);
    const language = ctx.lsp.languageOf(relative) ?? languageIdOf(relative);
    if (language !== undefined) languages.set(language, [...(languages.get(language) ?? []), relative]);
  }
  const users = languages.size === 0 ? [] : (await usersOf(ctx, opts.paths)).map((p) => ctx.fs.relative(p));
  // One run per checker: TypeScript's compiler checks the JavaScript files written with the TypeScript ones.
  const families = new Map<string, string[]>();
  for (const [languageId, files] of languages)
    families.set(editCheckFamily(languageId), [...(families.get(editCheckFamily(languageId)) ?? []), ...files]);
  const dependents = languages.size === 0 ? undefined : await editDependents(ctx, [...languages.values()].flat());
  const checks: EditCheck[] = [];
  for (const [languageId, files] of families) {
    const check = languageEditCheck(ctx, {
      languageId,
      projectRoot: "",
      files: [...files, ...users, ...(dependents?.files ?? [])],
      unsearched: dependents?.cut === true,
    });
    if (check !== undefined) checks.push(check);
  }
  const deltas = await diagnosticsDeltas(ctx, {
    paths: opts.paths,
    write: async () => {
      for (const check of checks) await check.beforeWrite();
      await opts.write();
      for (const check of checks) check.afterWrite();
    },
  });
  const notes = new Map([...deltas].map(([path, delta]) => [path, delta.lines]));
  if (languages.size === 0) return { notes, errors: [] };
  const tally: CheckedErrors & { checkedFiles: number; late: string[]; verified: boolean; cut?: boolean } = {
    introduced: [],
    fixed: [],
    written: true,
    notChecked: 0,
    notCheckedFiles: [],
    checkedFiles: 0,
    late: [],
    verified: true,
  };
  const servers = new Set<string>();
  for (const path of opts.paths) {
    const file = ctx.fs.relative(path);
    const delta = deltas.get(path);
    if (delta?.state === "compared") {
      tally.checkedFiles++;
      if (delta.server !== undefined) servers.add(delta.server);
      tally.introduced.push(...delta.addedErrors.map((diagnostic): ErrorAt => ({ file, diagnostic })));
      tally.fixed.push(...delta.fixedErrors.map((diagnostic): ErrorAt => ({ file, diagnostic })));
    } else if (delta?.state === "late") {
      tally.checkedFiles++;
      tally.late.push(file);
      if (delta.cut === true) tally.cut = true;
    } else if (languages.has(ctx.lsp.languageOf(file) ?? languageIdOf(file) ?? "")) {
      // Past the bound, or no running server has it: unchecked unless a checker covers it.
      tally.notChecked++;
      tally.notCheckedFiles?.push(file);
    }
  }
  for (const check of checks) await check.settle(tally);
  const server = servers.size > 0 ? [...servers].join(", ") : "the running language servers";
  return {
    notes,
    errors: [errorsLine(tally, server), ...listedErrors("introduced", tally.introduced), ...listedErrors("fixed", tally.fixed)],
  };
}
