// The requests of protocol 1.3: the code-intelligence answers that were headless only (signature
// help, type hierarchy, rename, code actions, formatting) asked of VS Code's providers. An edit
// comes back as data (WireEdit), never applied by VS Code: the bridge checks every file through its
// jail and writes it itself, so VS Code's providers cannot write outside the workspace or behind the
// bridge's back. Kept beside protocol.ts, which spreads them into BRIDGE_REQUESTS.
import * as v from "valibot";

const str = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Position = v.object({ line: count, character: count });
const Range = v.object({ start: Position, end: Position });
const TypeItem = v.object({ name: str, kind: str, uri: str, range: Range });

/** The protocol version that added these requests. */
export const EDIT_PROTOCOL_VERSION = "1.3.0";

/**
 * A WorkspaceEdit of VS Code as text edits per file, each against the document as VS Code holds it.
 * `dirty`: files with unsaved changes in VS Code (the edit's positions are in the unsaved text, not
 * the file on disk). `fileOperations`: the edit also creates, renames or deletes files (VS Code's
 * API does not list those, so the bridge cannot check them and refuses the edit).
 */
export const WireEdit = v.object({
  files: v.array(v.object({ uri: str, edits: v.array(v.object({ range: Range, newText: str })) })),
  dirty: v.array(str),
  fileOperations: v.boolean(),
});
export type WireEdit = v.InferOutput<typeof WireEdit>;

const CodeAction = v.object({
  title: str,
  kind: v.optional(str),
  isPreferred: v.optional(v.boolean()),
  /** Why VS Code offers it disabled. */
  disabled: v.optional(str),
  /** The VS Code command it runs (instead of or after its edit). */
  command: v.optional(str),
});
export type WireCodeAction = v.InferOutput<typeof CodeAction>;

const Where = { uri: str, position: Position };
const ActionsAt = { uri: str, range: Range, only: v.optional(v.array(str)) };

export const EDIT_REQUESTS = {
  "extension/signatureHelp": {
    params: v.object(Where),
    result: v.object({
      signatures: v.array(
        v.object({
          label: str,
          documentation: v.optional(str),
          parameters: v.array(v.object({ label: str, documentation: v.optional(str) })),
          activeParameter: v.optional(count),
        }),
      ),
      activeSignature: count,
      activeParameter: v.optional(count),
    }),
  },
  /** One level each way, as LSP's typeHierarchy answers; `root` absent when nothing there has a hierarchy. */
  "extension/typeHierarchy": {
    params: v.object({ ...Where, directions: v.array(v.picklist(["supertypes", "subtypes"])) }),
    result: v.object({ root: v.optional(TypeItem), supertypes: v.array(TypeItem), subtypes: v.array(TypeItem) }),
  },
  /** VS Code's rename check: the range and placeholder, or why it cannot rename there. */
  "extension/prepareRename": {
    params: v.object(Where),
    result: v.object({ range: v.optional(Range), placeholder: v.optional(str), refused: v.optional(str) }),
  },
  "extension/rename": {
    params: v.object({ ...Where, newName: str }),
    result: v.object({ edit: v.nullable(WireEdit) }),
  },
  /** The code actions VS Code offers for a range, with the diagnostics there. */
  "extension/codeActions": {
    params: v.object(ActionsAt),
    result: v.object({
      actions: v.array(CodeAction),
      diagnostics: v.array(
        v.object({ range: Range, severity: v.picklist(["error", "warning", "info", "hint"]), message: str, source: v.optional(str) }),
      ),
    }),
  },
  /** The edit of the `index`th action (0-based) of the same question, which must still be titled `title`. */
  "extension/codeActionEdit": {
    params: v.object({ ...ActionsAt, index: count, title: str }),
    result: v.object({ edit: v.nullable(WireEdit), command: v.optional(str) }),
  },
  /** Formatting edits of a whole document (no range) or of a range, with VS Code's options for it. */
  "extension/format": {
    params: v.object({ uri: str, range: v.optional(Range) }),
    /** `formatter` false: no formatter in VS Code handles the document (or the range). */
    result: v.object({ edit: WireEdit, formatter: v.boolean() }),
  },
} as const;
