// Line decorations the bridge sets (a review's notes, a failing test's lines), by id: setting an id
// again replaces it; they are drawn in every editor showing the file, now and when one opens later,
// and all go when the bridge link drops (the bridge clears a session's own when the session ends).
import * as vscode from "vscode";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import type { WireDecoration } from "../../src/extension/protocol-ide.ts";

interface Set1 {
  filePath: string;
  types: Map<WireDecoration["style"], vscode.TextEditorDecorationType>;
  decorations: WireDecoration[];
}

const COLORS: Record<WireDecoration["style"], string> = {
  info: "editorInfo.foreground",
  warning: "editorWarning.foreground",
  error: "editorError.foreground",
  highlight: "editor.findMatchHighlightBackground",
};

export class Decorations implements vscode.Disposable {
  private readonly sets = new Map<string, Set1>();
  private readonly sub = vscode.window.onDidChangeVisibleTextEditors((editors) => {
    for (const editor of editors) for (const set of this.sets.values()) this.draw(set, editor);
  });

  set(p: ParamsOf<"extension/setDecorations">): ResultOf<"extension/setDecorations"> {
    this.clear([p.id]);
    const set: Set1 = { filePath: p.filePath, types: new Map(), decorations: p.decorations };
    for (const style of new Set(p.decorations.map((d) => d.style))) set.types.set(style, decorationType(style));
    this.sets.set(p.id, set);
    let visible = false;
    for (const editor of vscode.window.visibleTextEditors) visible = this.draw(set, editor) || visible;
    return { applied: p.decorations.length, visible };
  }

  /** Clears the ids given, or all when none are. */
  clear(ids: readonly string[]): number {
    const chosen = ids.length === 0 ? [...this.sets.keys()] : ids;
    let cleared = 0;
    for (const id of chosen) {
      const set = this.sets.get(id);
      if (set === undefined) continue;
      for (const type of set.types.values()) type.dispose();
      this.sets.delete(id);
      cleared++;
    }
    return cleared;
  }

  dispose(): void {
    this.clear([]);
    this.sub.dispose();
  }

  private draw(set: Set1, editor: vscode.TextEditor): boolean {
    if (editor.document.uri.scheme !== "file" || editor.document.uri.fsPath !== set.filePath) return false;
    const last = editor.document.lineCount - 1;
    for (const [style, type] of set.types) {
      const options = set.decorations
        .filter((d) => d.style === style)
        .map((d): vscode.DecorationOptions => {
          const start = Math.min(d.startLine, last);
          const end = Math.min(Math.max(d.endLine, start), last);
          return {
            range: new vscode.Range(start, 0, end, editor.document.lineAt(end).range.end.character),
            ...(d.hoverMessage === undefined ? {} : { hoverMessage: new vscode.MarkdownString(d.hoverMessage) }),
            ...(d.after === undefined
              ? {}
              : { renderOptions: { after: { contentText: ` ${d.after}`, color: new vscode.ThemeColor(COLORS[style]) } } }),
          };
        });
      editor.setDecorations(type, options);
    }
    return true;
  }
}

function decorationType(style: WireDecoration["style"]): vscode.TextEditorDecorationType {
  const color = new vscode.ThemeColor(COLORS[style]);
  if (style === "highlight") return vscode.window.createTextEditorDecorationType({ isWholeLine: true, backgroundColor: color });
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    overviewRulerColor: color,
    overviewRulerLane: vscode.OverviewRulerLane.Right,
    borderWidth: "0 0 0 2px",
    borderStyle: "solid",
    borderColor: color,
  });
}
