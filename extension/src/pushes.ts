// What VS Code tells the bridge without being asked (EXTENSION_PUSHES): diagnostics as they change,
// the selection, the active file, edits and saves, languages whose features have reported, AI
// comments in open files, folder changes. On (re)connect the whole current state is sent once.
import * as vscode from "vscode";
import { MAX_ACTIVE_FILE_CHARS, MAX_AI_COMMENTS, MAX_DIAGNOSTIC_FILES, type AiComment } from "../../src/extension/protocol.ts";
import { wireDiagnostic, wireSelection } from "./convert.ts";
import { workspaceFolders } from "./handlers.ts";

type Notify = (method: string, params: unknown) => void;

/** `// AI: ...`, `# AI: ...`, `-- AI: ...`, `/* AI: ...`: the user's instructions for Claude in the code. */
const AI_COMMENT = /(?:\/\/|#|--|\/\*|<!--)\s*AI:\s*(.+?)\s*(?:\*\/|-->)?\s*$/;
const SCAN_DELAY_MS = 300;

export function startPushes(notify: Notify): vscode.Disposable {
  const scans = new Map<string, ReturnType<typeof setTimeout>>();
  const ready = new Set<string>();
  const isFile = (uri: vscode.Uri) => uri.scheme === "file";
  const scanComments = (doc: vscode.TextDocument) => {
    if (!isFile(doc.uri)) return;
    const key = doc.uri.toString();
    clearTimeout(scans.get(key));
    scans.set(
      key,
      setTimeout(() => {
        scans.delete(key);
        notify("extension/aiCommentsChanged", { filePath: doc.uri.fsPath, fileUrl: key, comments: aiComments(doc) });
      }, SCAN_DELAY_MS),
    );
  };
  const subs = [
    vscode.languages.onDidChangeDiagnostics((e) => {
      const uris = e.uris.filter(isFile);
      if (uris.length === 0) return;
      notify("extension/diagnosticsChanged", {
        files: uris.map((u) => ({ uri: u.toString(), diagnostics: vscode.languages.getDiagnostics(u).map(wireDiagnostic) })),
      });
      for (const u of uris) {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
        if (doc !== undefined && !ready.has(doc.languageId) && vscode.languages.getDiagnostics(u).length >= 0) {
          ready.add(doc.languageId);
          notify("extension/lspReady", { languageId: doc.languageId });
        }
      }
    }),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (isFile(e.textEditor.document.uri)) notify("extension/selectionChanged", wireSelection(e.textEditor));
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => notify("extension/activeFileChanged", activeFile(editor))),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!isFile(e.document.uri) || e.contentChanges.length === 0) return;
      notify("extension/fileChanged", {
        filePath: e.document.uri.fsPath,
        fileUrl: e.document.uri.toString(),
        version: e.document.version,
        isDirty: e.document.isDirty,
      });
      scanComments(e.document);
    }),
    vscode.workspace.onDidOpenTextDocument(scanComments),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isFile(doc.uri)) notify("extension/fileSaved", { filePath: doc.uri.fsPath, fileUrl: doc.uri.toString() });
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => notify("extension/workspaceFoldersChanged", { folders: workspaceFolders() })),
  ];
  return new vscode.Disposable(() => {
    for (const s of subs) s.dispose();
    for (const t of scans.values()) clearTimeout(t);
  });
}

/** Everything at once, after the hello: the bridge forgot what the last connection said. */
export function pushAll(notify: Notify): void {
  const files = vscode.languages
    .getDiagnostics()
    .filter(([u, ds]) => u.scheme === "file" && ds.length > 0)
    .slice(0, MAX_DIAGNOSTIC_FILES)
    .map(([u, ds]) => ({ uri: u.toString(), diagnostics: ds.map(wireDiagnostic) }));
  if (files.length > 0) notify("extension/diagnosticsChanged", { files });
  const editor = vscode.window.activeTextEditor;
  notify("extension/activeFileChanged", activeFile(editor));
  if (editor !== undefined && editor.document.uri.scheme === "file") notify("extension/selectionChanged", wireSelection(editor));
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme !== "file") continue;
    const comments = aiComments(doc);
    if (comments.length > 0) notify("extension/aiCommentsChanged", { filePath: doc.uri.fsPath, fileUrl: doc.uri.toString(), comments });
  }
}

function activeFile(editor: vscode.TextEditor | undefined) {
  if (editor === undefined || editor.document.uri.scheme !== "file") return { filePath: null, fileUrl: null };
  const doc = editor.document;
  const text = doc.getText();
  return {
    filePath: doc.uri.fsPath,
    fileUrl: doc.uri.toString(),
    languageId: doc.languageId,
    lineCount: doc.lineCount,
    isDirty: doc.isDirty,
    content: text.slice(0, MAX_ACTIVE_FILE_CHARS),
    contentTruncated: text.length > MAX_ACTIVE_FILE_CHARS,
  };
}

function aiComments(doc: vscode.TextDocument): AiComment[] {
  const found: AiComment[] = [];
  for (let line = 0; line < doc.lineCount && found.length < MAX_AI_COMMENTS; line++) {
    const match = AI_COMMENT.exec(doc.lineAt(line).text);
    if (match?.[1] !== undefined) found.push({ line, text: match[1] });
  }
  return found;
}
