// What the extension pushed, cached so tools answer without a round trip (Claude Code's IDE link
// wants getDiagnostics within a second): diagnostics per file, the current and the latest
// non-empty selection, the active file, AI comments, workspace folders, languages ready. Each is
// capped (protocol.ts), so a workspace with thousands of broken files cannot grow the bridge
// without bound; what a cap left out is counted, so a tool can say the answer is incomplete.
import {
  MAX_ACTIVE_FILE_CHARS,
  MAX_AI_COMMENTS,
  MAX_DIAGNOSTIC_FILES,
  type ActiveFile,
  type AiComment,
  type FileDiagnostics,
  type Folder,
  type Selection,
  type WireDiagnostic,
} from "./protocol.ts";

export interface FileComments {
  filePath: string;
  fileUrl: string;
  comments: AiComment[];
}

export class PushState {
  /** By URI, least recently updated first (a Map keeps insertion order; updates re-insert). */
  private readonly diagnostics = new Map<string, WireDiagnostic[]>();
  private readonly comments = new Map<string, FileComments>();
  /** Files whose diagnostics were dropped by the cap since the last reset. */
  droppedDiagnosticFiles = 0;
  selection: Selection | undefined;
  latestSelection: Selection | undefined;
  activeFile: ActiveFile | undefined;
  folders: Folder[] = [];
  readonly languagesReady = new Set<string>();

  setDiagnostics(files: readonly FileDiagnostics[]): void {
    for (const file of files) {
      this.diagnostics.delete(file.uri);
      if (file.diagnostics.length > 0) this.diagnostics.set(file.uri, file.diagnostics);
    }
    while (this.diagnostics.size > MAX_DIAGNOSTIC_FILES) {
      const oldest = this.diagnostics.keys().next().value;
      if (oldest === undefined) break;
      this.diagnostics.delete(oldest);
      this.droppedDiagnosticFiles += 1;
    }
  }

  /** One file's cached diagnostics, or every file's (those with at least one). */
  diagnosticsOf(uri?: string): FileDiagnostics[] {
    if (uri !== undefined) {
      const found = this.diagnostics.get(uri);
      return found === undefined ? [] : [{ uri, diagnostics: found }];
    }
    return [...this.diagnostics].map(([u, diagnostics]) => ({ uri: u, diagnostics }));
  }

  setSelection(selection: Selection): void {
    this.selection = selection;
    if (!selection.selection.isEmpty) this.latestSelection = selection;
  }

  setActiveFile(file: ActiveFile): void {
    const content = file.content;
    if (content !== undefined && content.length > MAX_ACTIVE_FILE_CHARS) {
      this.activeFile = { ...file, content: content.slice(0, MAX_ACTIVE_FILE_CHARS), contentTruncated: true };
    } else this.activeFile = file;
  }

  /** Replaces one file's AI comments; the total kept is capped, files seen first win. */
  setComments(file: FileComments): void {
    this.comments.delete(file.fileUrl);
    if (file.comments.length === 0) return;
    const room = MAX_AI_COMMENTS - this.commentCount();
    if (room <= 0) return;
    this.comments.set(file.fileUrl, { ...file, comments: file.comments.slice(0, room) });
  }

  allComments(): FileComments[] {
    return [...this.comments.values()];
  }

  commentCount(): number {
    let n = 0;
    for (const file of this.comments.values()) n += file.comments.length;
    return n;
  }

  /** The extension went away: nothing it said is known to be true any more. */
  clear(): void {
    this.diagnostics.clear();
    this.comments.clear();
    this.droppedDiagnosticFiles = 0;
    this.selection = undefined;
    this.latestSelection = undefined;
    this.activeFile = undefined;
    this.folders = [];
    this.languagesReady.clear();
  }
}
