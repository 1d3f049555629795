// The extension's entry: starts the bridge link when VS Code has started, shows its state in the
// status bar (click: details), registers the diff and mention commands, and pushes VS Code's state
// while connected. Everything is disposed with the extension.
import * as vscode from "vscode";
import type { Folder } from "../../src/extension/protocol.ts";
import { lockDirectory } from "./discovery.ts";
import { Debugger } from "./debugger.ts";
import { Decorations } from "./decorations.ts";
import { Diffs } from "./diffs.ts";
import { requestHandler, trackReports, workspaceFolders } from "./handlers.ts";
import { BridgeLink, type LinkState } from "./link.ts";
import { pushAll, startPushes } from "./pushes.ts";
import { Terminals } from "./terminals.ts";

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel("Claude IDE Bridge");
  const log = (message: string) => output.appendLine(`${new Date().toISOString()} ${message}`);
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = "claudeIdeBridge.showStatus";
  status.name = "Claude IDE Bridge";
  status.show();
  const version = String((context.extension.packageJSON as { version?: string }).version ?? "0.0.0");
  const settings = () => {
    const config = vscode.workspace.getConfiguration("claudeIdeBridge");
    const fromEnv = Number(process.env.CLAUDE_IDE_BRIDGE_PORT ?? 0);
    const port = config.get<number>("port", 0) || fromEnv;
    return { port: port > 0 ? port : undefined, lockDir: lockDirectory(config.get<string>("lockDirectory", "")) };
  };
  let link: BridgeLink | undefined;
  const notify = (method: string, params: unknown) => link?.notify(method, params);
  const diffs = new Diffs((tabName, outcome, contents) =>
    notify("extension/diffResolved", { tabName, outcome, ...(contents === undefined ? {} : { contents }) }),
  );
  const terminals = new Terminals();
  const decorations = new Decorations();
  const debug = new Debugger((params) => notify("extension/debugSessionChanged", params));
  link = new BridgeLink({
    extensionVersion: version,
    ideVersion: vscode.version,
    appName: vscode.env.appName,
    folders: (): Folder[] => workspaceFolders(),
    settings,
    handle: requestHandler({ diffs, terminals, decorations, debug }),
    onState: (state) => {
      // The bridge's decorations mean nothing without it.
      if (state.kind !== "connected") decorations.clear([]);
      showState(status, state);
    },
    onConnected: () => pushAll(notify),
    log,
  });
  const current = link;
  context.subscriptions.push(
    output,
    status,
    diffs,
    terminals,
    decorations,
    debug,
    startPushes(notify),
    trackReports(),
    vscode.commands.registerCommand("claudeIdeBridge.showStatus", () => showDetails(current.state, output)),
    vscode.commands.registerCommand("claudeIdeBridge.reconnect", () => current.reconnectNow()),
    vscode.commands.registerCommand("claudeIdeBridge.acceptDiff", (uri?: vscode.Uri) => diffs.accept(uri)),
    vscode.commands.registerCommand("claudeIdeBridge.rejectDiff", (uri?: vscode.Uri) => diffs.reject(uri)),
    vscode.commands.registerCommand("claudeIdeBridge.mentionSelection", () => {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined) return;
      const s = editor.selection;
      notify("extension/atMentioned", {
        filePath: editor.document.uri.fsPath,
        ...(s.isEmpty ? {} : { lineStart: s.start.line, lineEnd: s.end.line }),
      });
    }),
    // Superseded by another window: this one takes the bridge back when the user comes back to it.
    vscode.window.onDidChangeWindowState((w) => {
      if (w.focused && current.state.kind === "superseded") current.reconnectNow();
    }),
    new vscode.Disposable(() => current.stop()),
  );
  current.start();
}

export function deactivate(): void {}

function showState(item: vscode.StatusBarItem, state: LinkState): void {
  switch (state.kind) {
    case "connected":
      item.text = "$(plug) Claude Bridge";
      item.tooltip = `Connected to claude-ide-bridge ${state.bridgeVersion} on port ${state.target.port} (${state.target.workspace})`;
      return;
    case "connecting":
      item.text = "$(sync~spin) Claude Bridge";
      item.tooltip = `Connecting to port ${state.target.port}`;
      return;
    case "reconnecting":
      item.text = "$(debug-disconnect) Claude Bridge";
      item.tooltip = `Not connected: ${state.why}; trying again in ${Math.round(state.inMs / 100) / 10} s`;
      return;
    case "superseded":
      item.text = "$(debug-disconnect) Claude Bridge";
      item.tooltip = "Another VS Code window holds the bridge; focusing this window takes it back";
      return;
    case "incompatible":
      item.text = "$(warning) Claude Bridge";
      item.tooltip = state.message;
      return;
    default:
      item.text = "$(search) Claude Bridge";
      item.tooltip = "Looking for a claude-ide-bridge for this folder";
  }
}

function showDetails(state: LinkState, output: vscode.OutputChannel): void {
  const text =
    state.kind === "connected"
      ? `Connected to claude-ide-bridge ${state.bridgeVersion} on port ${state.target.port} for ${state.target.workspace} since ${new Date(state.since).toLocaleTimeString()}.`
      : state.kind === "reconnecting"
        ? `Not connected: ${state.why}. Start one with \`claude-ide-bridge --workspace <folder>\` (or let the shim start it).`
        : state.kind === "incompatible"
          ? state.message
          : state.kind === "superseded"
            ? "Another VS Code window holds the bridge for this folder."
            : "Looking for a bridge.";
  void vscode.window.showInformationMessage(text, "Show Log", "Reconnect").then((choice) => {
    if (choice === "Show Log") output.show();
    if (choice === "Reconnect") void vscode.commands.executeCommand("claudeIdeBridge.reconnect");
  });
}
