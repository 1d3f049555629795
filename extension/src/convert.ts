// VS Code's objects in the protocol's shapes (0-based positions, file paths and URIs as strings).
import * as vscode from "vscode";
import type { EditorTab, Selection, WireDiagnostic, WireRange } from "../../src/extension/protocol.ts";

const SEVERITY: Record<vscode.DiagnosticSeverity, WireDiagnostic["severity"]> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "info",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

export function wireRange(range: vscode.Range): WireRange {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

export function wireDiagnostic(d: vscode.Diagnostic): WireDiagnostic {
  const out: WireDiagnostic = { range: wireRange(d.range), severity: SEVERITY[d.severity], message: d.message };
  if (d.source !== undefined) out.source = d.source;
  const code = typeof d.code === "object" && d.code !== null ? d.code.value : d.code;
  if (code !== undefined) out.code = code;
  return out;
}

export function wireSelection(editor: vscode.TextEditor): Selection {
  const s = editor.selection;
  return {
    text: editor.document.getText(s),
    filePath: editor.document.uri.fsPath,
    fileUrl: editor.document.uri.toString(),
    selection: { ...wireRange(s), isEmpty: s.isEmpty },
  };
}

export function findDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
}

export function editorTabs(): EditorTab[] {
  const tabs: EditorTab[] = [];
  const active = vscode.window.tabGroups.activeTabGroup;
  vscode.window.tabGroups.all.forEach((group, groupIndex) => {
    for (const tab of group.tabs) {
      if (!(tab.input instanceof vscode.TabInputText)) continue;
      const uri = tab.input.uri;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
      const entry: EditorTab = {
        uri: uri.toString(),
        isActive: tab.isActive,
        isPinned: tab.isPinned,
        isPreview: tab.isPreview,
        isDirty: tab.isDirty,
        label: tab.label,
        groupIndex,
        viewColumn: group.viewColumn,
        isGroupActive: group === active,
        fileName: uri.fsPath,
        languageId: doc?.languageId ?? "",
        lineCount: doc?.lineCount ?? 0,
        isUntitled: uri.scheme === "untitled",
      };
      if (editor !== undefined) entry.selection = { ...wireRange(editor.selection), isEmpty: editor.selection.isEmpty };
      tabs.push(entry);
    }
  });
  return tabs;
}
