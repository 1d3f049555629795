// An edit VS Code computed (rename, code action, formatting) made by the bridge, not by VS Code: every
// file goes through the jail (src/lsp/workspace-edit.ts refuses the whole edit on the first outside
// one), the new content is planned from the files on disk (edit-plan.ts), and written all files or
// none, each only if still the version read. VS Code computed the edit on its documents: a file
// with unsaved changes there has other positions than the file on disk, so such an edit is refused
// (save first); so is one with file operations, which VS Code's API does not let the bridge see.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import { encode, planChanges } from "../lsp/edit-plan.ts";
import { checkWorkspaceEdit } from "../lsp/workspace-edit.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { contentHash } from "../workspace/file-version.ts";
import type { FileWrite, WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { WireEdit } from "./protocol-edit.ts";

export interface PlannedFile {
  path: WorkspacePath;
  relative: string;
  before: string;
  after: string;
  write: FileWrite;
}

export interface VsCodeEditPlan {
  /** The files whose content changes. */
  files: PlannedFile[];
  /** Of the planned content: a preview's digest, so a later call writes exactly what was shown. */
  digest: string;
}

/** `what` names the edit in messages ("the rename", "the code action"). */
export async function planVsCodeEdit(fs: WorkspaceFs, edit: WireEdit, opts: { what: string }): Promise<VsCodeEditPlan> {
  const { what } = opts;
  if (edit.fileOperations)
    throw new ToolError(
      "not_supported",
      `VS Code's ${what} also creates, renames or deletes files, which the bridge cannot check through VS Code; nothing was changed`,
      {
        suggestion: "Do it in VS Code yourself, or with the extension disconnected (the bridge's language server's edit is checked whole).",
      },
    );
  const dirty = edit.dirty.map((uri) => uri.replace(/^file:\/\//, ""));
  if (dirty.length > 0)
    throw new ToolError(
      "file_changed",
      `${dirty.join(", ")} ha${dirty.length === 1 ? "s" : "ve"} unsaved changes in VS Code, where ${what} was computed; nothing was changed`,
      {
        suggestion: "Save the file (saveDocument) or revert it in VS Code, then ask again.",
      },
    );
  const lsp: WorkspaceEdit = { changes: Object.fromEntries(edit.files.map((f) => [f.uri, f.edits])) };
  const checked = await checkWorkspaceEdit(lsp, (uri, o) => fs.resolve(uri, o));
  const plan = await planChanges({ fs, openText: () => undefined }, checked.changes);
  const files: PlannedFile[] = [];
  for (const p of plan.values()) {
    if (p.disk === undefined || p.proposed === undefined || p.proposed.text === p.disk.text) continue;
    files.push({
      path: p.path,
      relative: p.relative,
      before: p.disk.text,
      after: p.proposed.text,
      write: { label: p.relative, path: p.path, data: encode(p.proposed), expect: p.disk.expect },
    });
  }
  const sorted = files.sort((a, b) => (a.relative < b.relative ? -1 : 1));
  // Eight hex characters: the `preview` argument of the edit tools (edit-fields.ts).
  const digest = (
    await contentHash(new TextEncoder().encode(sorted.map((f) => `${f.relative}\0${f.before}\0${f.after}`).join("\0")))
  ).slice(0, 8);
  return { files: sorted, digest };
}

/** Writes the plan, all files or none (each only if still the version planned from). */
export function commitVsCodeEdit(fs: WorkspaceFs, plan: VsCodeEditPlan): Promise<void> {
  return fs.commit(plan.files.map((f) => f.write));
}
