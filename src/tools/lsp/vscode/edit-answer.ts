// What an editing tool answers when VS Code computed the edit (src/extension/vscode-edit.ts makes it
// through the jail): a dry run's diff and digest, or the files written together, with the errors the
// write changed where a language server of the bridge has the files. VS Code's own view of the
// errors comes after it reloads the files, so it is named, not guessed.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { WireEdit } from "../../../extension/protocol-edit.ts";
import { commitVsCodeEdit, planVsCodeEdit } from "../../../extension/vscode-edit.ts";
import { withDiagnosticsDelta } from "../../../services/diagnostics/diagnostics-delta.ts";
import { editReport } from "../../../services/documents/edit-report.ts";

export interface EditWords {
  /** "the rename", for refusals. */
  what: string;
  /** "Renamed `a` to `b`". */
  done: string;
  /** "Would rename `a` to `b`". */
  would: string;
  /** The whole answer when the edit changes nothing. */
  none: string;
}

export async function vsCodeEditAnswer(
  ctx: ToolContext,
  edit: WireEdit,
  opts: EditWords & { dryRun: boolean; expectDigest?: string | undefined; applyHint?: string },
): Promise<string> {
  const plan = await planVsCodeEdit(ctx.fs, edit, { what: opts.what });
  if (plan.files.length === 0) return opts.none;
  const count = `${plan.files.length} file${plan.files.length === 1 ? "" : "s"}`;
  const changes = (notes?: ReadonlyMap<string, string[]>) =>
    plan.files.map((f) => ({ label: f.relative, before: f.before, after: f.after, data: f.write.data, notes: notes?.get(f.path) ?? [] }));
  const changed = opts.expectDigest !== undefined && opts.expectDigest !== plan.digest;
  if (opts.dryRun || changed) {
    const head = changed
      ? `NOT APPLIED: ${opts.would.charAt(0).toLowerCase()}${opts.would.slice(1)}, but it is not the edit previewed as ${opts.expectDigest} (the files or VS Code's answer changed since); nothing was written.`
      : `${opts.would}: ${count} (dry run; nothing written; computed by VS Code).`;
    const next =
      opts.applyHint ??
      `Preview ${plan.digest}: pass preview: "${plan.digest}" to write exactly this edit (nothing is written if it has changed).`;
    return [head, next, await editReport(changes(), { written: false })].join("\n");
  }
  const notes = await withDiagnosticsDelta(ctx, { paths: plan.files.map((f) => f.path), write: () => commitVsCodeEdit(ctx.fs, plan) });
  const checked = plan.files.some((f) => (notes.get(f.path) ?? []).length > 0);
  return [
    `${opts.done}: ${count} written together (computed by VS Code).`,
    ...(checked
      ? []
      : [
          "Errors: not compared (no language server of the bridge has these files); getDiagnostics shows VS Code's once it has reloaded them.",
        ]),
    await editReport(changes(notes), { written: true }),
  ].join("\n");
}
