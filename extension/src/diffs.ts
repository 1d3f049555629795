// Claude's proposed edits as VS Code diffs (the bridge's openDiff): the file on the left, the
// proposal on the right in an editable in-memory document, titled with the tab name Claude Code
// gave. Accept (the ✓ in the editor title) sends the right side's text, the user's edits included;
// reject (✗) or closing the tab sends a rejection. The file itself is never written here: Claude
// Code writes it after an accept.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";

export const DIFF_SCHEME = "claude-ide-bridge-diff";

interface OpenDiff {
  tabName: string;
  left: vscode.Uri;
  right: vscode.Uri;
}

type Resolve = (tabName: string, outcome: "accepted" | "rejected", contents?: string) => void;

/** The proposals' text, in memory. */
class ProposalFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Uint8Array>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  set(uri: vscode.Uri, text: string): void {
    this.files.set(uri.path, new TextEncoder().encode(text));
  }
  drop(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const data = this.files.get(uri.path);
    if (data === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: data.byteLength };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const data = this.files.get(uri.path);
    if (data === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, content);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions("proposals cannot be renamed");
  }
}

export class Diffs implements vscode.Disposable {
  private readonly fs = new ProposalFs();
  private readonly open = new Map<string, OpenDiff>();
  private readonly disposables: vscode.Disposable[] = [];
  private counter = 0;

  constructor(private readonly resolve: Resolve) {
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(DIFF_SCHEME, this.fs, { isCaseSensitive: true }),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const diff = this.byTab(tab);
          if (diff !== undefined) this.finish(diff, "rejected");
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        void vscode.commands.executeCommand("setContext", "claudeIdeBridge.diffActive", editor?.document.uri.scheme === DIFF_SCHEME);
      }),
    );
  }

  async show(params: { oldFilePath: string; newFilePath: string; newContents: string; tabName: string }): Promise<{ shown: boolean }> {
    const earlier = this.open.get(params.tabName);
    if (earlier !== undefined) await this.close(earlier, "rejected");
    const id = ++this.counter;
    const name = basename(params.newFilePath);
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/${name}` });
    this.fs.set(right, params.newContents);
    let left = vscode.Uri.file(params.oldFilePath);
    if (!existsSync(params.oldFilePath)) {
      left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/original/${name}` });
      this.fs.set(left, "");
    }
    const diff: OpenDiff = { tabName: params.tabName, left, right };
    this.open.set(params.tabName, diff);
    // Not awaited: on a busy machine VS Code takes seconds to lay the diff out, and the bridge only
    // needs to know it was asked; a diff that cannot be shown is answered as rejected.
    vscode.commands
      .executeCommand("vscode.diff", left, right, params.tabName, { preview: false, preserveFocus: false })
      .then(undefined, () => {
        if (this.open.get(params.tabName) === diff) this.finish(diff, "rejected");
      });
    return { shown: true };
  }

  /** The ✓ button or command: the proposal as it is now in the editor. */
  async accept(uri?: vscode.Uri): Promise<void> {
    const diff = this.target(uri);
    if (diff === undefined) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === diff.right.toString());
    const contents = doc?.getText() ?? new TextDecoder().decode(this.fs.readFile(diff.right));
    await this.close(diff, "accepted", contents);
  }

  async reject(uri?: vscode.Uri): Promise<void> {
    const diff = this.target(uri);
    if (diff !== undefined) await this.close(diff, "rejected");
  }

  /** The bridge closes its own diffs (closeAllDiffTabs, an abandoned openDiff). */
  async closeByName(tabNames: readonly string[]): Promise<number> {
    let closed = 0;
    for (const name of tabNames) {
      const diff = this.open.get(name);
      if (diff === undefined) continue;
      this.open.delete(name);
      await this.closeTab(diff);
      closed += 1;
    }
    return closed;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private target(uri?: vscode.Uri): OpenDiff | undefined {
    const wanted = uri?.scheme === DIFF_SCHEME ? uri : vscode.window.activeTextEditor?.document.uri;
    return (
      [...this.open.values()].find((d) => d.right.toString() === wanted?.toString()) ??
      (this.open.size === 1 ? [...this.open.values()][0] : undefined)
    );
  }

  private byTab(tab: vscode.Tab): OpenDiff | undefined {
    const input = tab.input;
    if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
    return [...this.open.values()].find((d) => d.right.toString() === input.modified.toString());
  }

  private async close(diff: OpenDiff, outcome: "accepted" | "rejected", contents?: string): Promise<void> {
    this.finish(diff, outcome, contents);
    await this.closeTab(diff);
  }

  /** Answers the bridge once; the tab closing afterwards is not a second answer. */
  private finish(diff: OpenDiff, outcome: "accepted" | "rejected", contents?: string): void {
    if (this.open.get(diff.tabName) !== diff) return;
    this.open.delete(diff.tabName);
    this.resolve(diff.tabName, outcome, contents);
  }

  private async closeTab(diff: OpenDiff): Promise<void> {
    // An edited proposal is saved into memory first, so closing it asks the user nothing.
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === diff.right.toString());
    if (doc?.isDirty) await doc.save();
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === diff.right.toString());
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    this.fs.drop(diff.right);
    if (diff.left.scheme === DIFF_SCHEME) this.fs.drop(diff.left);
  }
}
