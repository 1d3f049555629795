// The seam between language-server edits and the workspace's atomic multi-file writer. Servers
// answer rename, code actions and formatting with a WorkspaceEdit; here it is checked against the
// jail (every URI must resolve inside the workspace, else the whole edit is refused, since a server
// is not trusted to stay inside) and normalised into one list of changes per file. Applying it,
// atomically and with a dry-run diff, is apply-edit.ts's job.
import type {
  AnnotatedTextEdit,
  CreateFile,
  SnippetTextEdit,
  DeleteFile,
  RenameFile,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import { childPath, type WorkspacePath } from "../security/jail/workspace-path.ts";
import { splitLast } from "../workspace/parent-entry.ts";

export type CheckedChange =
  | {
      kind: "edit";
      path: WorkspacePath;
      edits: TextEdit[];
      /** The version the server computed the edit for, when it said. */
      version: number | null;
    }
  | { kind: "create"; path: WorkspacePath; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: "rename"; from: WorkspacePath; to: WorkspacePath; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: "delete"; path: WorkspacePath; recursive: boolean; ignoreIfNotExists: boolean };

/** A WorkspaceEdit whose every path the jail accepted, in the order the server gave. */
interface CheckedWorkspaceEdit {
  readonly changes: readonly CheckedChange[];
}

type Resolve = (uri: string, opts: { mustExist: boolean }) => Promise<WorkspacePath>;

/**
 * Checks every URI of `edit` through the jail (`resolve` is ctx.fs.resolve); refuses the whole edit
 * on the first outside one. Nothing need exist yet (a file the edit creates or moves is edited
 * after); apply-edit.ts checks what exists against the edit's own earlier steps. What a rename or
 * delete acts on is the entry itself, so its directory is resolved and its name kept: a symlink is
 * then seen as one, not as the file it points to.
 */
export async function checkWorkspaceEdit(edit: WorkspaceEdit, resolve: Resolve): Promise<CheckedWorkspaceEdit> {
  const inside = async (uri: string, entryItself = false) => {
    try {
      if (!entryItself) return await resolve(uri, { mustExist: false });
      const { dir, name } = splitLast(uri);
      const parent = await resolve(dir, { mustExist: false });
      return childPath(parent, name);
    } catch (err) {
      throw new ToolError(
        "outside_workspace",
        `The language server's edit touches ${uri}, which is not a file in the workspace; nothing was changed`,
        {
          suggestion: "Make the change by hand inside the workspace, or narrow the request so the edit stays in it.",
          cause: err,
        },
      );
    }
  };
  const changes: CheckedChange[] = [];
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change)
      changes.push({
        kind: "edit",
        path: await inside(change.textDocument.uri),
        edits: change.edits.map(plainEdit),
        version: (change as TextDocumentEdit).textDocument.version,
      });
    else if (change.kind === "create")
      changes.push({
        kind: "create",
        path: await inside((change as CreateFile).uri, true),
        overwrite: change.options?.overwrite === true,
        ignoreIfExists: change.options?.ignoreIfExists === true,
      });
    else if (change.kind === "rename") {
      const rename = change as RenameFile;
      changes.push({
        kind: "rename",
        from: await inside(rename.oldUri, true),
        to: await inside(rename.newUri, true),
        overwrite: rename.options?.overwrite === true,
        ignoreIfExists: rename.options?.ignoreIfExists === true,
      });
    } else {
      const del = change as DeleteFile;
      changes.push({
        kind: "delete",
        path: await inside(del.uri, true),
        recursive: del.options?.recursive === true,
        ignoreIfNotExists: del.options?.ignoreIfNotExists === true,
      });
    }
  }
  // `changes` is the older form; servers send one or the other.
  if (edit.documentChanges === undefined) {
    for (const [uri, edits] of Object.entries(edit.changes ?? {}))
      changes.push({ kind: "edit", path: await inside(uri), edits: edits.map(plainEdit), version: null });
  }
  return { changes };
}

/** A snippet edit (LSP 3.18) is applied as its text: a file has no tab stops. */
function plainEdit(edit: TextEdit | AnnotatedTextEdit | SnippetTextEdit): TextEdit {
  return { range: edit.range, newText: "newText" in edit ? edit.newText : edit.snippet.value.replace(/\$\{\d+:?([^}]*)\}|\$\d+/g, "$1") };
}
