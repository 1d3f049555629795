// The bridge's requests (BRIDGE_REQUESTS in the shared protocol module), carried out with the VS Code
// API. Params are checked against the protocol's schemas first; what cannot be done is a Failure
// with the bridge's error code and a next step.
import * as v from "valibot";
import * as vscode from "vscode";
import { BRIDGE_REQUESTS, type BridgeMethod, type FileDiagnostics, type ParamsOf, type ResultOf } from "../../src/extension/protocol.ts";
import { editorTabs, findDocument, wireDiagnostic, wireSelection } from "./convert.ts";
import type { Debugger } from "./debugger.ts";
import type { Decorations } from "./decorations.ts";
import type { Diffs } from "./diffs.ts";
import { editHandlers } from "./edits.ts";
import { languageFeature } from "./features.ts";
import { Failure } from "./failure.ts";
import { notebookCells, notebookOutput, runNotebookCell } from "./notebooks.ts";
import type { Terminals } from "./terminals.ts";
import * as workbench from "./workbench.ts";

const DIAGNOSTICS_WAIT_MS = 5_000;

/** Documents a language feature has reported diagnostics on since they were opened. */
const reported = new Set<string>();

export function trackReports(): vscode.Disposable {
  const subs = [
    vscode.languages.onDidChangeDiagnostics((e) => {
      for (const uri of e.uris) reported.add(uri.toString());
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => reported.delete(doc.uri.toString())),
  ];
  return new vscode.Disposable(() => {
    for (const s of subs) s.dispose();
  });
}

type Handlers = { [M in BridgeMethod]: (params: ParamsOf<M>) => Promise<ResultOf<M>> };

export interface HandlerParts {
  diffs: Diffs;
  terminals: Terminals;
  decorations: Decorations;
  debug: Debugger;
}

export function requestHandler(parts: HandlerParts): (method: string, params: unknown) => Promise<unknown> {
  const { diffs, terminals, decorations, debug } = parts;
  const handlers: Handlers = {
    "extension/openFile": openFile,
    "extension/getSelection": async () => {
      const editor = vscode.window.activeTextEditor;
      return { selection: editor === undefined || editor.document.uri.scheme !== "file" ? null : wireSelection(editor) };
    },
    "extension/getOpenEditors": async () => ({ tabs: editorTabs() }),
    "extension/closeTab": closeTab,
    "extension/saveDocument": async ({ filePath }) => {
      const doc = findDocument(filePath);
      if (doc === undefined) return { open: false, saved: false, message: `Document not open: ${filePath}` };
      const saved = await doc.save();
      return { open: true, saved, message: saved ? "Document saved successfully" : "VS Code did not save it (cancelled or failed)" };
    },
    "extension/checkDocumentDirty": async ({ filePath }) => {
      const doc = findDocument(filePath);
      return { open: doc !== undefined, isDirty: doc?.isDirty ?? false, isUntitled: doc?.isUntitled ?? false };
    },
    "extension/readDocument": async ({ filePath }) => {
      const doc = findDocument(filePath) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(filePath)));
      return {
        text: doc.getText(),
        isDirty: doc.isDirty,
        version: doc.version,
        languageId: doc.languageId,
        eol: doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n",
      };
    },
    "extension/getDiagnostics": getDiagnostics,
    "extension/getWorkspaceFolders": async () => ({ folders: workspaceFolders() }),
    "extension/openDiff": (p) => diffs.show(p),
    "extension/closeDiffs": async ({ tabNames }) => ({ closed: await diffs.closeByName(tabNames) }),
    "extension/executeCode": async () => {
      throw new Failure(
        "not_supported",
        "No Jupyter notebook kernel is available to run code in this VS Code window",
        "Open a Jupyter notebook with a running kernel, or run the code with the bridge's runCommand.",
      );
    },
    "extension/languageFeature": languageFeature,
    "extension/createTerminal": (p) => terminals.create(p),
    "extension/listTerminals": () => terminals.list(),
    "extension/terminalCommand": (p) => terminals.command(p),
    "extension/terminalOutput": (p) => terminals.output(p),
    "extension/disposeTerminal": async ({ id }) => terminals.disposeTerminal(id),
    "extension/executeCommand": workbench.executeCommand,
    "extension/listCommands": workbench.listCommands,
    "extension/listTasks": workbench.listTasks,
    "extension/runTask": workbench.runTask,
    "extension/getSettings": workbench.getSettings,
    "extension/setSetting": workbench.setSetting,
    "extension/setDecorations": async (p) => decorations.set(p),
    "extension/clearDecorations": async ({ ids }) => ({ cleared: decorations.clear(ids) }),
    "extension/readClipboard": workbench.readClipboard,
    "extension/writeClipboard": workbench.writeClipboard,
    ...editHandlers,
    "extension/debugStart": (p) => debug.start(p),
    "extension/debugSessions": async () => debug.sessions(),
    "extension/debugControl": (p) => debug.control(p),
    "extension/debugRequest": (p) => debug.request(p),
    "extension/debugStop": (p) => debug.stop(p),
    "extension/setBreakpoints": (p) => debug.setBreakpoints(p),
    "extension/debugOutput": async (p) => debug.output(p),
    "extension/notebookCells": notebookCells,
    "extension/notebookOutput": notebookOutput,
    "extension/runNotebookCell": runNotebookCell,
  };
  return async (method, params) => {
    if (!Object.hasOwn(BRIDGE_REQUESTS, method)) throw new Error(`Method not found: ${method}`);
    const name = method as BridgeMethod;
    const checked = v.safeParse(BRIDGE_REQUESTS[name].params, params);
    if (!checked.success)
      throw new Failure(
        "invalid_arguments",
        `Invalid params for ${method}: ${checked.issues[0].message}`,
        "Update the extension and the bridge to matching versions.",
      );
    const handler = handlers[name] as (p: unknown) => Promise<unknown>;
    return handler(checked.output);
  };
}

export function workspaceFolders(): { name: string; uri: string; path: string }[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => ({ name: f.name, uri: f.uri.toString(), path: f.uri.fsPath }));
}

async function openFile(p: ParamsOf<"extension/openFile">): Promise<ResultOf<"extension/openFile">> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(p.filePath));
  let selection: vscode.Range | undefined;
  if (p.startText !== undefined) {
    const text = doc.getText();
    const start = text.indexOf(p.startText);
    if (start < 0)
      throw new Failure("match_not_found", `"${p.startText}" is not in ${p.filePath}`, "Give text that is in the file, or a line.");
    let end = start + p.startText.length;
    if (p.endText !== undefined) {
      const at = text.indexOf(p.endText, end);
      if (at >= 0) end = at + p.endText.length;
    }
    let endPos = doc.positionAt(end);
    if (p.selectToEndOfLine) endPos = doc.lineAt(endPos.line).range.end;
    selection = new vscode.Range(doc.positionAt(start), endPos);
  } else if (p.startLine !== undefined) {
    const last = Math.min(p.endLine ?? p.startLine, doc.lineCount - 1);
    const first = Math.min(p.startLine, last);
    selection = new vscode.Range(first, 0, last, doc.lineAt(last).range.end.character);
  }
  // Not awaited: the document is open; laying out its editor can take seconds on a busy machine.
  vscode.window
    .showTextDocument(doc, { preview: p.preview ?? false, preserveFocus: p.makeFrontmost === false, ...(selection ? { selection } : {}) })
    .then(
      (editor) => selection !== undefined && editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport),
      () => undefined,
    );
  return { filePath: doc.uri.fsPath, languageId: doc.languageId, lineCount: doc.lineCount };
}

async function closeTab(p: ParamsOf<"extension/closeTab">): Promise<ResultOf<"extension/closeTab">> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => {
      if (p.tabName !== undefined && tab.label === p.tabName) return true;
      return p.filePath !== undefined && tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === p.filePath && !tab.isDirty;
    });
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  return { closed: tabs.length };
}

async function getDiagnostics(p: ParamsOf<"extension/getDiagnostics">): Promise<ResultOf<"extension/getDiagnostics">> {
  if (p.uri === undefined) {
    return {
      files: vscode.languages
        .getDiagnostics()
        .filter(([u]) => u.scheme === "file")
        .map(([u, ds]) => fileDiagnostics(u, ds)),
    };
  }
  const uri = vscode.Uri.parse(p.uri);
  let settled = true;
  let opened = false;
  const inTab = tabsOf(uri).length > 0;
  if (p.open === true && !(inTab && reported.has(uri.toString()))) {
    // VS Code's language features check open documents, and its TypeScript only those in an editor
    // tab (closing the tab clears its report): a file in no tab is opened in a background tab (not
    // activated, the focus kept), its report waited for, read, and the tab closed again.
    const report = firstReport(uri);
    await vscode.workspace.openTextDocument(uri);
    if (!inTab) {
      await vscode.commands.executeCommand("vscode.open", uri, { background: true, preserveFocus: true, preview: false });
      opened = true;
    }
    settled = (await report) || reported.has(uri.toString());
  }
  const files = [fileDiagnostics(uri, vscode.languages.getDiagnostics(uri))];
  // Looked up now (the extension host learns of a new tab a moment after the command); a tab the
  // user has made active or edited meanwhile (or one openFile showed at the same time) stays.
  const ours = opened ? tabsOf(uri).filter((tab) => !tab.isActive && !tab.isDirty) : [];
  if (ours.length > 0) await vscode.window.tabGroups.close(ours, true).then(undefined, () => undefined);
  return { files, settled };
}

/** True once a language feature reports on the document, false after DIAGNOSTICS_WAIT_MS. */
function firstReport(uri: vscode.Uri): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(false);
    }, DIAGNOSTICS_WAIT_MS);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(true);
    });
  });
}

function tabsOf(uri: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
}

function fileDiagnostics(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]): FileDiagnostics {
  return { uri: uri.toString(), diagnostics: diagnostics.map(wireDiagnostic) };
}
