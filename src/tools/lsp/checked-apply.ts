// A server's WorkspaceEdit applied (src/lsp/apply-edit.ts) and, once written, checked after the
// fact by the language's own checker too (src/services/diagnostics/edit-check.ts: tsgo per
// tsconfig project, pyright's CLI, go vet), over the files it edits and the files that use them:
// what renameSymbol, the code actions, organizeImports and the refactorings share, so each says
// the same of the errors it introduced and of what was not checked. A rename knows the files its
// edit can break before the server computes it (those that mention the old or the new name), so its
// checker's run over them as they are starts beside the server's request (startCheck), and is used
// when the edit stays within them.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import type { ApplyEditOptions, EditOutcome } from "../../lsp/apply-edit.ts";
import type { LanguageServer } from "../../lsp/language-server.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { stopByOf } from "../../services/diagnostics/call-budget.ts";
import { editDependents } from "../../services/diagnostics/edit-dependents.ts";
import { type EditCheck, languageEditCheck } from "../../services/diagnostics/edit-check.ts";
import { usersOf } from "../../services/lsp-speculative/speculative-check.ts";
import { includersFinder } from "../../services/language/includers.ts";

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
  /** A check started before the edit was known (startCheck), used when the edit touches only files it covers. */
  started?: StartedCheck;
}

export interface StartedCheck {
  check: EditCheck | undefined;
  files: ReadonlySet<string>;
}

/**
 * The language's checker started over root-relative `files` as they are, before the edit is known:
 * for an edit whose breakable files are known first (a rename's mentions of either name).
 */
export async function startCheck(
  ctx: ToolContext,
  server: LanguageServer,
  opts: { languageId: string; files: Iterable<string> },
): Promise<StartedCheck> {
  const files = new Set(opts.files);
  const projectRoot = ctx.fs.relative(await ctx.fs.resolve(server.launch.root));
  return { check: languageEditCheck(ctx, { languageId: opts.languageId, projectRoot, files }), files };
}

/** `alsoCheck` unset: the files that import an edited one (by its module name) are checked too. */
export async function applyChecked(ctx: ToolContext, server: LanguageServer, opts: CheckedApplyOptions): Promise<EditOutcome> {
  const { edit, languageId, mentions, preferChecker, started, ...apply } = opts;
  const edited = await filesOfEdit(ctx, edit);
  const users = apply.alsoCheck ?? (await usersOf(ctx, await pathsOf(ctx, [...edited])));
  const check = apply.dryRun
    ? undefined
    : started !== undefined && [...edited].every((f) => started.files.has(f))
      ? started.check
      : await newCheck(ctx, server, { languageId, edited, users, mentions });
  const serverCheck = !(preferChecker === true && check !== undefined && (await check.usable()));
  const outcome = await ctx.lsp.applyEdit(server, edit, {
    ...apply,
    alsoCheck: users,
    serverCheck,
    includersOf: includersFinder(ctx, server),
    stopBy: stopByOf(ctx),
    ...(check === undefined ? {} : { beforeWrite: () => check.beforeWrite(), afterWrite: () => check.afterWrite() }),
  });
  await check?.settle(outcome);
  return outcome;
}

/**
 * The checker over the edited files, their users, and the files given as using what changes; or,
 * with none given, the files that use the edited ones through other modules too (edit-dependents.ts):
 * a rename's mentions of its names are every file it can break, a code action's are not known.
 */
async function newCheck(
  ctx: ToolContext,
  server: LanguageServer,
  opts: { languageId: string; edited: ReadonlySet<string>; users: readonly WorkspacePath[]; mentions: Iterable<string> | undefined },
): Promise<EditCheck | undefined> {
  const dependents = opts.mentions === undefined ? await editDependents(ctx, [...opts.edited]) : { files: [...opts.mentions], cut: false };
  return languageEditCheck(ctx, {
    languageId: opts.languageId,
    projectRoot: ctx.fs.relative(await ctx.fs.resolve(server.launch.root)),
    files: [...opts.edited, ...opts.users.map((p) => ctx.fs.relative(p)), ...dependents.files],
    unsearched: dependents.cut,
  });
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
