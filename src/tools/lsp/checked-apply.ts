// A server's WorkspaceEdit applied (src/lsp/apply-edit.ts) and, once written, checked after the
// fact by the language's own checker too (src/services/diagnostics/edit-check.ts: tsgo per
// tsconfig project, pyright's CLI, go vet), over the files it edits and the files that use them:
// what renameSymbol, the code actions, organizeImports and the refactorings share, so each says
// the same of the errors it introduced and of what was not checked.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import type { ApplyEditOptions, EditOutcome } from "../../lsp/apply-edit.ts";
import type { LanguageServer } from "../../lsp/language-server.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { editDependents } from "../../services/diagnostics/edit-dependents.ts";
import { languageEditCheck } from "../../services/diagnostics/edit-check.ts";
import { usersOf } from "../../services/lsp-speculative/speculative-check.ts";

export interface CheckedApplyOptions extends Omit<ApplyEditOptions, "beforeWrite" | "afterWrite" | "serverCheck"> {
  edit: WorkspaceEdit;
  languageId: string;
  /** Root-relative files that use what the edit changes, for the checker (a renamed symbol's mentions). */
  mentions?: Iterable<string>;
  /**
   * The written edit's errors are counted by the checker alone when it can run: for a server whose
   * first diagnostics are slow (typescript-language-server's refactorings), rather than waiting on it.
   */
  preferChecker?: boolean;
}

/** `alsoCheck` unset: the files that import an edited one (by its module name) are checked too. */
export async function applyChecked(ctx: ToolContext, server: LanguageServer, opts: CheckedApplyOptions): Promise<EditOutcome> {
  const { edit, languageId, mentions, preferChecker, ...apply } = opts;
  const edited = await filesOfEdit(ctx, edit);
  const users = apply.alsoCheck ?? (await usersOf(ctx, await pathsOf(ctx, [...edited])));
  // The checker is given the files that use the edited ones through other modules too (edit-dependents.ts).
  const dependents = apply.dryRun ? undefined : await editDependents(ctx, [...edited]);
  const check =
    dependents === undefined
      ? undefined
      : languageEditCheck(ctx, {
          languageId,
          projectRoot: ctx.fs.relative(await ctx.fs.resolve(server.launch.root)),
          files: [...edited, ...users.map((p) => ctx.fs.relative(p)), ...(mentions ?? []), ...dependents.files],
          unsearched: dependents.cut,
        });
  const serverCheck = !(preferChecker === true && check !== undefined && (await check.usable()));
  const outcome = await ctx.lsp.applyEdit(server, edit, {
    ...apply,
    alsoCheck: users,
    serverCheck,
    ...(check === undefined ? {} : { beforeWrite: () => check.beforeWrite(), afterWrite: () => check.afterWrite() }),
  });
  await check?.settle(outcome);
  return outcome;
}

/** Root-relative names of the files a WorkspaceEdit touches (inside the workspace). */
export async function filesOfEdit(ctx: ToolContext, edit: WorkspaceEdit): Promise<Set<string>> {
  const uris = [...Object.keys(edit.changes ?? {})];
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change) uris.push(change.textDocument.uri);
    else if (change.kind === "rename") uris.push(change.oldUri, change.newUri);
    else uris.push(change.uri);
  }
  const files = new Set<string>();
  for (const uri of new Set(uris)) {
    const path = await ctx.lsp.pathOf(uri);
    if (path !== undefined) files.add(ctx.fs.relative(path));
  }
  return files;
}

/** The workspace paths of root-relative names, through the jail; names that no longer resolve are left out. */
export async function pathsOf(ctx: ToolContext, files: readonly string[]): Promise<WorkspacePath[]> {
  const out: WorkspacePath[] = [];
  for (const file of new Set(files)) {
    const path = await ctx.fs.resolve(file).catch(() => undefined);
    if (path !== undefined) out.push(path);
  }
  return out;
}
