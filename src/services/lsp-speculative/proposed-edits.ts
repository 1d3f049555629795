// The edits a model proposes to simulateEdit, safeApplyEdit and simulateChain, turned into the new
// content of each file: an exact text replaced (it must occur once), or whole lines replaced. Steps
// of a chain build on each other: each applies to the content the previous steps left. The result
// is one whole-file WorkspaceEdit per state, applied through src/lsp/apply-edit.ts like any server
// edit (jailed, atomic, the errors it introduces and fixes compared). Started from an edit
// transaction, the files it stages begin as staged (created ones included), so the edits apply on
// top of what the transaction would commit.
import * as v from "valibot";
import type { CreateFile, TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";
import { MAX_DOCUMENT_BYTES } from "../../lsp/lsp-service.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { Transaction } from "../edit-transactions/transaction-store.ts";

const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const ProposedEdit = v.strictObject({
  file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
  oldText: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Exact text to replace (must occur once); or give startLine."))),
  startLine: v.optional(line("First line replaced (with endLine), instead of oldText.")),
  endLine: v.optional(line("Inclusive last line replaced (default startLine).")),
  newText: v.pipe(v.string(), v.description("The replacement.")),
});
export type ProposedEdit = v.InferOutput<typeof ProposedEdit>;

export const ProposedEdits = v.pipe(v.array(ProposedEdit), v.minLength(1), v.maxLength(50), v.description("Edits, applied in order."));

interface FileState {
  path: WorkspacePath;
  relative: string;
  /** undefined: the file does not exist on disk (a transaction creates it). */
  disk: string | undefined;
  /** The text the edits started from: the staged text, or what is on disk. */
  start: string;
  text: string;
}

/** Content of the files the edits touch, as they are on disk and then after each edit in order. */
export class EditedFiles {
  private readonly files = new Map<string, FileState>();

  constructor(private readonly ctx: ToolContext) {}

  /**
   * Begins from the transaction's staged files. Each must still be on disk as it was when staged
   * (or still absent, for one it creates): the check is of what committing would write.
   */
  async startFrom(tx: Transaction): Promise<void> {
    for (const [path, staged] of tx.files) {
      const relative = this.ctx.fs.relative(path);
      const entry = await this.ctx.fs.entryStat(path);
      const disk = entry === undefined ? undefined : await this.ctx.fs.readText(path, { maxBytes: MAX_DOCUMENT_BYTES });
      const expected = staged.create ? undefined : staged.base.text;
      if (disk !== expected)
        throw new ToolError("file_changed", `${relative} changed on disk since ${tx.id} staged it; committing it would fail`, {
          suggestion: "Roll the transaction back and stage the edits again on the file as it is now.",
        });
      this.files.set(path, { path, relative, disk, start: staged.text, text: staged.text });
    }
  }

  async apply(edits: readonly ProposedEdit[]): Promise<void> {
    for (const edit of edits) {
      const state = await this.state(edit.file);
      state.text = replaced(state, edit);
    }
  }

  /** The files the edits change, as one whole-file edit from what is on disk. */
  workspaceEdit(): WorkspaceEdit {
    const documentChanges: (TextDocumentEdit | CreateFile)[] = [];
    for (const state of this.files.values()) {
      if (state.text === state.disk) continue;
      if (state.disk === undefined) {
        const uri = toFileUri(state.path);
        documentChanges.push({ kind: "create", uri }, { textDocument: { uri, version: null }, edits: [insertAtStart(state.text)] });
        continue;
      }
      const lines = state.disk.split("\n");
      const end = { line: lines.length - 1, character: (lines[lines.length - 1] ?? "").length };
      documentChanges.push({
        textDocument: { uri: toFileUri(state.path), version: null },
        edits: [{ range: { start: { line: 0, character: 0 }, end }, newText: state.text }],
      });
    }
    return { documentChanges };
  }

  /** Files whose text the edits changed from where they started (the staged text or disk). */
  changed(): { relative: string; start: string; text: string }[] {
    return [...this.files.values()].filter((s) => s.text !== s.start).map((s) => ({ relative: s.relative, start: s.start, text: s.text }));
  }

  paths(): WorkspacePath[] {
    return [...this.files.values()].map((s) => s.path);
  }

  first(): string | undefined {
    return [...this.files.values()][0]?.relative;
  }

  private async state(file: string): Promise<FileState> {
    const path = await this.ctx.fs.resolve(file);
    let state = this.files.get(path);
    if (state === undefined) {
      const disk = await this.ctx.fs.readText(path, { maxBytes: MAX_DOCUMENT_BYTES });
      state = { path, relative: this.ctx.fs.relative(path), disk, start: disk, text: disk };
      this.files.set(path, state);
    }
    return state;
  }
}

function replaced(state: FileState, edit: ProposedEdit): string {
  if (edit.oldText !== undefined) {
    if (edit.startLine !== undefined)
      throw new ToolError("invalid_arguments", `an edit of ${state.relative} gives both oldText and startLine`, {
        suggestion: "Give oldText (an exact text) or startLine/endLine (whole lines), not both.",
      });
    const at = state.text.indexOf(edit.oldText);
    if (at < 0)
      throw new ToolError("match_not_found", `oldText does not occur in ${state.relative} (after the edits before it)`, {
        suggestion: "Copy the text exactly as the file has it now (readFile), whitespace included.",
      });
    if (state.text.indexOf(edit.oldText, at + 1) >= 0)
      throw new ToolError("match_ambiguous", `oldText occurs more than once in ${state.relative}`, {
        suggestion: "Include more of the surrounding lines so the text occurs once, or use startLine/endLine.",
      });
    return state.text.slice(0, at) + edit.newText + state.text.slice(at + edit.oldText.length);
  }
  if (edit.startLine === undefined)
    throw new ToolError("invalid_arguments", `an edit of ${state.relative} gives neither oldText nor startLine`, {
      suggestion: "Give oldText (an exact text to replace) or startLine/endLine (whole lines to replace).",
    });
  const lines = state.text.split("\n");
  const last = edit.endLine ?? edit.startLine;
  const count = state.text.endsWith("\n") ? lines.length - 1 : lines.length;
  if (edit.startLine > count + 1 || last < edit.startLine - 1 || last > count)
    throw new ToolError("invalid_arguments", `lines ${edit.startLine}-${last} are not in ${state.relative} (${count} lines)`, {
      suggestion: `Pass 1 <= startLine <= endLine <= ${count} (endLine = startLine - 1 inserts before startLine).`,
    });
  const replacement = edit.newText === "" ? [] : edit.newText.replace(/\n$/, "").split("\n");
  lines.splice(edit.startLine - 1, last - edit.startLine + 1, ...replacement);
  return lines.join("\n");
}

function insertAtStart(text: string): TextEdit {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: text };
}
